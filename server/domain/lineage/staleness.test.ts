import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleReasonText } from "../../../lib/stale-reason.ts";
import { buildLineageScenario, lineageQueries, scenarioCommands } from "../../testing/lineage-scenario.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import type { StaleMarkRow } from "../../db/rows.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import { emitStaleOnBump, invalidateDownstream, staleListenersOf } from "./staleness.ts";

let hub: TempHub;
let q: ReturnType<typeof lineageQueries>;
let run: ReturnType<typeof scenarioCommands>;
beforeEach(async () => {
  hub = await tempHub();
  await buildLineageScenario(hub);
  [q, run] = [lineageQueries(hub), scenarioCommands(hub)];
});
afterEach(() => hub.close());

const invalidate = (artifactId: string, reason = "schema is wrong") =>
  hub.db.write("test.invalidate", "operator", (tx) => invalidateDownstream(tx, "default", artifactId, reason, "qa-bot"));
const staleEvents = () => hub.events.filter((e) => e.type === "artifact.stale").map((e) => ({ subject: e.subject, payload: e.payload }));
const addPipeline = (id: string, triggers: string, status = "active", team = "default") =>
  run.sql(
    sql`INSERT INTO "Pipeline" ("teamId","id","status","rules","triggers","createdBy","fromEventId","createdAt","updatedAt") VALUES (${team},${id},${status},${JSON.stringify([{ trigger: "artifact_stale", action: { type: "broadcast", message: "stale" } }])},${triggers},'operator',0,${new Date().toISOString()},${new Date().toISOString()})`,
  );

describe("invalidateDownstream", () => {
  const invalidated = (root: string) => ({ kind: "invalidated", root, reason: "schema is wrong", markedBy: "qa-bot", path: [] });
  const throughApi = (version: string, via: object) => ({
    kind: "invalidated",
    root: "api@v2",
    reason: "schema is wrong",
    markedBy: "qa-bot",
    path: [{ version, input: "api@v2", ...via }],
  });
  const cause = { kind: "invalidated", by: "qa-bot", source: "schema" };

  it("marks the current version of everything downstream, once, with one event each", async () => {
    expect(await invalidate("schema")).toEqual(["api@v2", "docs@v1", "tests@v1"]);
    expect(staleEvents()).toEqual([
      { subject: "artifact:api@v2", payload: { artifactId: "api", version: 2, reason: "schema is wrong", cause } },
      { subject: "artifact:docs@v1", payload: { artifactId: "docs", version: 1, reason: "schema is wrong", cause } },
      { subject: "artifact:tests@v1", payload: { artifactId: "tests", version: 1, reason: "schema is wrong", cause } },
    ]);
    expect(await q.stale()).toEqual([
      { artifactId: "api", version: 2, reasons: [invalidated("api@v2")] },
      { artifactId: "docs", version: 1, reasons: [invalidated("docs@v1"), throughApi("docs@v1", { via: "contract", contractId: "document-api" })] },
      { artifactId: "tests", version: 1, reasons: [invalidated("tests@v1"), throughApi("tests@v1", { via: "derivedFrom" })] },
    ]);
    expect((await q.stale())[2].reasons.map(staleReasonText)).toEqual([
      "tests@v1 was invalidated by qa-bot: schema is wrong",
      "api@v2 was invalidated by qa-bot: schema is wrong; path: tests@v1 ← api@v2 (derivedFrom)",
    ]);

    expect(await invalidate("schema", "again")).toEqual([]);
    expect(await invalidate("api", "again")).toEqual([]);
    expect(staleEvents()).toHaveLength(3);
    expect(((await snapshotTables(hub)).StaleMark as StaleMarkRow[]).map((m) => [m.seq, m.reason])).toEqual([
      [3, "schema is wrong"],
      [5, "schema is wrong"],
      [4, "schema is wrong"],
    ]);
  });

  it("marks stop counting once a newer version is current", async () => {
    await invalidate("schema");
    await run.bumpApi();
    expect(await q.stale()).toEqual([
      {
        artifactId: "docs",
        version: 1,
        reasons: [
          invalidated("docs@v1"),
          {
            kind: "superseded",
            root: "api@v2",
            current: "api@v3",
            path: [{ version: "docs@v1", input: "api@v2", via: "contract", contractId: "document-api" }],
          },
        ],
      },
      {
        artifactId: "tests",
        version: 1,
        reasons: [
          invalidated("tests@v1"),
          { kind: "superseded", root: "api@v2", current: "api@v3", path: [{ version: "tests@v1", input: "api@v2", via: "derivedFrom" }] },
        ],
      },
    ]);
    expect(await invalidate("schema")).toEqual(["api@v3"]);
  });

  it("reaches only what is downstream, never the artifact itself", async () => {
    expect(await invalidate("api")).toEqual(["docs@v1", "tests@v1"]);
    expect(await invalidate("tests")).toEqual([]);
  });

  it("refuses an unknown artifact and writes nothing", async () => {
    const err = await refusedWithoutWriting(hub, () => invalidate("ghost"));
    expect([err.code, err.message]).toEqual(["not_found", "artifactId: artifact 'ghost' does not exist"]);
  });
});

describe("artifact.stale on a version bump", () => {
  const superseded = (reason: string, previous: number, current: number, source = "schema") => ({
    reason,
    cause: { kind: "superseded", source, previous, current },
  });

  it("emits nothing when no active pipeline listens for artifact_stale", async () => {
    await addPipeline("paused", "artifact_stale", "paused");
    await addPipeline("other-trigger", "artifact_published contract_failed");
    await addPipeline("not-a-word", "artifact_stale_x xartifact_stale");
    await addPipeline("other-team", "artifact_stale", "active", "elsewhere");
    const listening = await hub.db.read((s) => s.get<{ listening: number }>(sql`SELECT ${staleListenersOf("default")} AS "listening"`));
    expect(listening).toEqual({ listening: 0 });
    await run.bumpSchema();
    expect(staleEvents()).toEqual([]);
  });

  it("tells listeners which artifacts the bump left behind, right after the publish event", async () => {
    await addPipeline("heal", "artifact_published artifact_stale");
    const before = hub.events.length;
    await run.bumpSchema();
    const why = superseded("schema@v1 was superseded by schema@v2", 1, 2);
    expect(staleEvents()).toEqual([
      { subject: "artifact:api@v2", payload: { artifactId: "api", version: 2, ...why } },
      { subject: "artifact:docs@v1", payload: { artifactId: "docs", version: 1, ...why } },
      { subject: "artifact:tests@v1", payload: { artifactId: "tests", version: 1, ...why } },
    ]);
    expect(hub.events.slice(before).map((e) => e.type)).toEqual(["artifact.published", "artifact.stale", "artifact.stale", "artifact.stale"]);
  });

  it("starts from the version that was current, skipping rolled-back ones", async () => {
    await addPipeline("heal", "artifact_stale");
    await run.setStatus("api", 2, "rolled_back");
    // api@v1 was current before this publish, and nothing was derived from it: tests and docs read the rolled-back v2.
    await run.bumpApi();
    expect(staleEvents()).toEqual([]);
    await run.publish({ id: "client", derivedFrom: ["api@v3"] });
    await run.bumpApi();
    expect(staleEvents()).toEqual([
      { subject: "artifact:client@v1", payload: { artifactId: "client", version: 1, ...superseded("api@v3 was superseded by api@v4", 3, 4, "api") } },
    ]);
  });

  it("emitStaleOnBump can be called directly and returns what it emitted for", async () => {
    const bump = () => hub.db.write("test.bump", "operator", (tx) => emitStaleOnBump(tx, "default", "api", 3, 3));
    expect(await bump()).toEqual(["docs@v1", "tests@v1"]);
    expect(staleEvents().map((e) => e.payload.reason)).toEqual(["api@v2 was superseded by api@v3", "api@v2 was superseded by api@v3"]);
  });
});
