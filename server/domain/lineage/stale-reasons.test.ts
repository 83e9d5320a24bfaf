/**
 * Staleness explains itself (docs/lineage.md): every reason names the root version that changed and the path
 * to it, each step a `derivedFrom` input or a contract's pinned input. The reported case: an API
 * republished from the new schema is still stale, because the contract it was published under
 * pinned the old schema as its input (through the contract it depends on).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleReasonText } from "../../../lib/stale-reason.ts";
import { ALICE, API_DATA, BOB, CAROL, lineageQueries, SCHEMA_DATA, scenarioCommands } from "../../testing/lineage-scenario.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";

let hub: TempHub;
let q: ReturnType<typeof lineageQueries>;
let run: ReturnType<typeof scenarioCommands>;
beforeEach(async () => {
  hub = await tempHub();
  [q, run] = [lineageQueries(hub), scenarioCommands(hub)];
});
afterEach(() => hub.close());

const schema = (contractId?: string) => run.publish({ id: "schema-user-model", type: "schema-change", data: SCHEMA_DATA, contractId }, ALICE);
const reset = (derivedFrom: string) =>
  run.publish({ id: "api-contract-reset", type: "api-contract", data: API_DATA, derivedFrom: [derivedFrom], contractId: "build-reset" }, BOB);
const whyOf = async (id: string) => (await q.stale()).find((s) => s.artifactId === id)?.reasons.map(staleReasonText);

/**
 * design-schema publishes schema-user-model@v1; build-reset depends on design-schema, so it pins
 * that contract's outputs, and completes with api-contract-reset@v1. The schema moves to v2
 * outside design-schema, build-reset is reopened, and api-contract-reset@v2 is published from
 * schema-user-model@v2: completing build-reset again links its pinned input, still @v1, to @v2.
 */
async function reportedCase() {
  await run.contract({ id: "design-schema", assignee: "alice", expectedOutputs: [{ artifactType: "schema-change", artifactId: "schema-user-model" }] });
  await run.contract({
    id: "build-reset",
    assignee: "bob",
    dependencies: [{ type: "contract", contractId: "design-schema" }],
    expectedOutputs: [{ artifactType: "api-contract", artifactId: "api-contract-reset" }],
  });
  await run.start("design-schema", ALICE);
  await schema("design-schema");
  await run.start("build-reset", BOB);
  await reset("schema-user-model@v1");
  await schema();
  await run.reopen("build-reset", "the schema changed");
  await run.start("build-reset", BOB);
  await reset("schema-user-model@v2");
}

describe("through a contract's pinned input", () => {
  it("the reported case is stale, and says it came through build-reset's pinned input, not through its derivedFrom", async () => {
    await reportedCase();
    const edges = (await q.graph({ ref: "api-contract-reset" })).edges;
    expect(edges).toEqual([
      { from: "schema-user-model@v2", to: "api-contract-reset@v2", kind: "derived", contractId: null },
      { from: "schema-user-model@v1", to: "api-contract-reset@v2", kind: "contract", contractId: "build-reset" },
    ]);
    expect(await q.stale()).toEqual([
      {
        artifactId: "api-contract-reset",
        version: 2,
        reasons: [
          {
            kind: "superseded",
            root: "schema-user-model@v1",
            current: "schema-user-model@v2",
            path: [{ version: "api-contract-reset@v2", input: "schema-user-model@v1", via: "contract", contractId: "build-reset" }],
          },
        ],
      },
    ]);
    expect(await whyOf("api-contract-reset")).toEqual([
      "schema-user-model@v1 was superseded by schema-user-model@v2; path: api-contract-reset@v2 ← schema-user-model@v1 (through contract build-reset's pinned input)",
    ]);
  });

  it("passes the pinned-input step on to what is derived from it", async () => {
    await reportedCase();
    await run.publish({ id: "reset-tests", type: "test-results", data: { total: 2, passed: 2, failed: 0 }, derivedFrom: ["api-contract-reset"] }, CAROL);
    expect(await whyOf("reset-tests")).toEqual([
      "schema-user-model@v1 was superseded by schema-user-model@v2; path: reset-tests@v1 ← api-contract-reset@v2 (derivedFrom) ← schema-user-model@v1 (through contract build-reset's pinned input)",
    ]);
  });

  it("clears once the contract it depends on has the new schema as its output", async () => {
    await reportedCase();
    await run.reopen("design-schema", "publish the new schema under the contract");
    await run.start("design-schema", ALICE);
    await schema("design-schema");
    await run.reopen("build-reset", "the design changed");
    await run.start("build-reset", BOB);
    await reset("schema-user-model@v3");
    expect(await q.stale()).toEqual([]);
  });
});

describe("direct and transitive paths", () => {
  it("a direct derivedFrom input: a path of one step", async () => {
    await schema();
    await run.publish({ id: "api", type: "api-contract", data: API_DATA, derivedFrom: ["schema-user-model"] }, BOB);
    await schema();
    expect(await whyOf("api")).toEqual(["schema-user-model@v1 was superseded by schema-user-model@v2; path: api@v1 ← schema-user-model@v1 (derivedFrom)"]);
  });

  it("a transitive path names the root, not the stale input in between, and one reason per input that carries it", async () => {
    await schema();
    await run.publish({ id: "model", data: {}, derivedFrom: ["schema-user-model"] });
    await run.publish({ id: "api", data: {}, derivedFrom: ["model"] });
    await run.publish({ id: "client", data: {}, derivedFrom: ["api", "model"] });
    await schema();
    const [client] = (await q.stale()).filter((s) => s.artifactId === "client");
    expect(client.reasons.map((r) => [r.kind, r.root, r.path.map((s) => `${s.version} ← ${s.input}`)])).toEqual([
      ["superseded", "schema-user-model@v1", ["client@v1 ← model@v1", "model@v1 ← schema-user-model@v1"]],
      ["superseded", "schema-user-model@v1", ["client@v1 ← api@v1", "api@v1 ← model@v1", "model@v1 ← schema-user-model@v1"]],
    ]);
  });

  it("a path never comes back to the version it explains, not even to an invalidated root", async () => {
    const a = await run.publish({ id: "a", data: {} });
    const b = await run.publish({ id: "b", data: {}, derivedFrom: ["a"] });
    // b@v1 → a@v1 as a contract link would make it, and a mark on a@v1 alone.
    await run.sql(sql`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind","contractId") VALUES (${b.seq}, ${a.seq}, 'contract', 'loop')`);
    await run.sql(
      sql`INSERT INTO "StaleMark" ("teamId","seq","reason","markedBy","at") VALUES ('default', ${a.seq}, 'wrong', 'qa', ${new Date().toISOString()})`,
    );
    expect(await whyOf("a")).toEqual(["a@v1 was invalidated by qa: wrong"]);
    expect(await whyOf("b")).toEqual(["a@v1 was invalidated by qa: wrong; path: b@v1 ← a@v1 (derivedFrom)"]);
  });
});
