import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleReasonText } from "../../../lib/stale-reason.ts";
import { buildLineageScenario, lineageQueries, scenarioCommands } from "../../testing/lineage-scenario.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";

/** Which versions the lineage queries see: rolled-back ones count as not current, archived artifacts only when named. */
let hub: TempHub;
let q: ReturnType<typeof lineageQueries>;
let run: ReturnType<typeof scenarioCommands>;
beforeEach(async () => {
  hub = await tempHub();
  await buildLineageScenario(hub);
  [q, run] = [lineageQueries(hub), scenarioCommands(hub)];
});
afterEach(() => hub.close());

describe("rolled-back versions", () => {
  it("make what was derived from them stale against the version now current", async () => {
    await run.setStatus("api", 2, "rolled_back");
    expect(await q.stale()).toEqual([
      {
        artifactId: "docs",
        version: 1,
        reasons: [
          {
            kind: "rolled_back",
            root: "api@v2",
            current: "api@v1",
            path: [{ version: "docs@v1", input: "api@v2", via: "contract", contractId: "document-api" }],
          },
        ],
      },
      {
        artifactId: "tests",
        version: 1,
        reasons: [{ kind: "rolled_back", root: "api@v2", current: "api@v1", path: [{ version: "tests@v1", input: "api@v2", via: "derivedFrom" }] }],
      },
    ]);
    expect((await q.stale())[1].reasons.map(staleReasonText)).toEqual(["api@v2 was rolled back (api is now at api@v1); path: tests@v1 ← api@v2 (derivedFrom)"]);
    expect((await q.graph({ ref: "api@v2", direction: "downstream", depth: 1 })).nodes[0]).toMatchObject({
      status: "rolled_back",
      current: false,
      stale: false,
    });
  });

  it("with no active version left, the input's current version is null", async () => {
    await run.setStatus("api", 1, "rolled_back");
    await run.setStatus("api", 2, "rolled_back");
    expect((await q.stale()).map((s) => [s.artifactId, s.reasons.map(staleReasonText)])).toEqual([
      ["docs", ["api@v2 was rolled back (api has no active version); path: docs@v1 ← api@v2 (through contract document-api's pinned input)"]],
      ["tests", ["api@v2 was rolled back (api has no active version); path: tests@v1 ← api@v2 (derivedFrom)"]],
    ]);
    expect((await q.impactOf("schema")).artifacts.map((a) => a.artifactId)).toEqual(["docs", "tests"]);
  });
});

describe("archived artifacts", () => {
  beforeEach(async () => {
    await run.bumpSchema();
    await run.archive("tests");
  });

  it("are left out of stale, impact and walks", async () => {
    expect((await q.stale()).map((s) => s.artifactId)).toEqual(["api", "docs"]);
    expect(await q.staleIds()).toEqual(["api", "docs"]);
    expect((await q.impactOf("schema")).artifacts.map((a) => a.artifactId)).toEqual(["api", "docs"]);
    expect((await q.graph({ ref: "schema@v1", direction: "downstream" })).nodes.map((n) => n.key)).toEqual(["schema@v1", "api@v1", "api@v2", "docs@v1"]);
  });

  it("are still reachable by name", async () => {
    const g = await q.graph({ ref: "tests" });
    expect(g.nodes.map((n) => [n.key, n.stale])).toEqual([
      ["tests@v1", false],
      ["api@v2", true],
      ["schema@v1", false],
    ]);
    expect((await q.auditOf("tests@v1")).trail).toHaveLength(3);
    expect((await q.impactOf("tests")).contracts).toHaveLength(2);
  });
});

describe("bad references", () => {
  it.each([
    ["ghost", "not_found", "ref: artifact 'ghost' does not exist"],
    ["api@v9", "not_found", "ref: artifact version 'api@v9' does not exist"],
  ])("lineage and audit refuse %s", async (ref, code, message) => {
    for (const call of [() => q.graph({ ref }), () => q.auditOf(ref)]) {
      const err = await refusedWithoutWriting(hub, call);
      expect([err.code, err.message, err.details.field]).toEqual([code, message, "ref"]);
    }
  });

  it("a bare id with every version rolled back has no current version", async () => {
    await run.setStatus("docs", 1, "rolled_back");
    const err = await refusedWithoutWriting(hub, () => q.graph({ ref: "docs" }));
    expect([err.code, err.message]).toEqual(["not_found", "ref: artifact 'docs' has no active version (all were rolled back)"]);
    expect((await q.graph({ ref: "docs@v1" })).root).toBe("docs@v1");
  });

  it("impact refuses an unknown artifact, and teams do not see each other's", async () => {
    const err = await refusedWithoutWriting(hub, () => q.impactOf("ghost"));
    expect([err.code, err.message]).toEqual(["not_found", "id: artifact 'ghost' does not exist"]);
    const other = await refusedWithoutWriting(hub, () => q.graph({ team: "other", ref: "api" }));
    expect(other.message).toBe("ref: artifact 'api' does not exist");
    expect(await q.stale("other")).toEqual([]);
  });
});
