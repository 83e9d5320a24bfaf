/**
 * The lineage scenario (the Quick Start's artifacts, docs/lineage.md), built through the real commands:
 *
 *   schema@v1 ──► api@v1
 *             └─► api@v2 ──► tests@v1   (derivedFrom; published under contract write-tests)
 *                        └─► docs@v1    (no derivedFrom: linked when contract document-api completed)
 *
 * plus contracts that rely on these artifacts in each way (dependency, criterion, output), one
 * that does not, and reads by the people who used each version.
 */
import { GetArtifactInput, ListArtifactsInput, PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { ContractRefInput, CreateContractInput, ReopenContractInput } from "../../lib/api/contracts.ts";
import { AuditInput, ImpactInput, LineageInput, StaleInput } from "../../lib/api/lineage.ts";
import { getArtifact, listArtifacts, publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { createContract, reopenContract, startContract } from "../domain/contracts/contracts.service.ts";
import { audit, impact, lineage, staleArtifacts } from "../domain/lineage/lineage.service.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { sql, type Query } from "../db/sql.ts";
import type { TempHub } from "./temp-hub.ts";

export const ALICE: Principal = { name: "alice", kind: "member" };
export const BOB: Principal = { name: "bob", kind: "agent", sessionId: "sess-bob" };
export const CAROL: Principal = { name: "carol", kind: "member" };
export const DAVE: Principal = { name: "dave", kind: "member" };

export const SCHEMA_DATA = { models: [{ name: "User", fields: ["email"] }] };
export const API_DATA = { endpoints: [{ method: "POST", path: "/login" }] };

/** The commands the scenario is built with, parsed like the adapters parse them, plus raw SQL for what no command does yet. */
export function scenarioCommands(hub: TempHub) {
  const publish = (input: Record<string, unknown>, actor: Principal = OPERATOR) =>
    publishArtifact(hub, actor, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));
  const write = (query: Query) => hub.db.write("test.sql", "operator", (tx) => tx.run(query));
  return {
    publish,
    contract: (input: Record<string, unknown>) => createContract(hub, OPERATOR, CreateContractInput.parse({ title: "Work", ...input })),
    start: (id: string, actor: Principal) => startContract(hub, actor, ContractRefInput.parse({ id })),
    reopen: (id: string, reason: string) => reopenContract(hub, OPERATOR, ReopenContractInput.parse({ id, reason })),
    read: (id: string, version: number, actor: Principal) => getArtifact(hub, actor, GetArtifactInput.parse({ id, version })),
    bumpSchema: () => publish({ id: "schema", type: "schema-change", data: SCHEMA_DATA }, ALICE),
    bumpApi: () => publish({ id: "api", type: "api-contract", data: API_DATA, derivedFrom: ["schema"] }, BOB),
    sql: write,
    /** There is no rollback command yet: set the status the way a snapshot rollback will. */
    setStatus: (id: string, version: number, status: string) =>
      write(
        sql`UPDATE "ArtifactVersion" SET "status" = ${status} WHERE "version" = ${version} AND "artifactPk" = (SELECT "pk" FROM "Artifact" WHERE "id" = ${id})`,
      ),
    /** As team_reset will. */
    archive: (id: string) => write(sql`UPDATE "Artifact" SET "archivedAt" = ${new Date().toISOString()} WHERE "id" = ${id}`),
  };
}

/** The lineage queries, parsed like the adapters parse them. */
export function lineageQueries(hub: TempHub) {
  return {
    stale: (team?: string) => staleArtifacts(hub, StaleInput.parse({ team })),
    graph: (input: Record<string, unknown>) => lineage(hub, LineageInput.parse(input)),
    impactOf: (id: string) => impact(hub, ImpactInput.parse({ id })),
    auditOf: (ref: string) => audit(hub, AuditInput.parse({ ref })),
    staleIds: async (filters: Record<string, unknown> = {}) =>
      (await listArtifacts(hub, ListArtifactsInput.parse({ stale: true, ...filters }))).items.map((a) => a.id),
  };
}

/** Builds the scenario; returns the publish results by ref (seqs 1–5 in this order). */
export async function buildLineageScenario(hub: TempHub) {
  const { publish, contract, start, read } = scenarioCommands(hub);
  await contract({
    id: "build-api",
    assignee: "bob",
    dependencies: [{ type: "artifact", artifactId: "schema" }],
    expectedOutputs: [{ artifactType: "api-contract", artifactId: "api" }],
  });
  await contract({ id: "review-schema", assignee: "alice", acceptanceCriteria: [{ type: "artifact_published", artifactId: "schema", minVersion: 3 }] });
  await contract({ id: "unrelated", assignee: "erin", dependencies: [{ type: "artifact", artifactId: "logo" }] });

  const schema1 = await publish({ id: "schema", type: "schema-change", data: SCHEMA_DATA }, ALICE);
  await read("schema", 1, BOB);
  const api1 = await publish({ id: "api", type: "api-contract", data: API_DATA, derivedFrom: ["schema@v1"] }, BOB);
  const api2 = await publish({ id: "api", type: "api-contract", data: API_DATA, derivedFrom: ["schema@v1"], summary: "v2" }, BOB);

  await contract({
    id: "write-tests",
    assignee: "carol",
    dependencies: [{ type: "artifact", artifactId: "api" }],
    acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests" }],
    expectedOutputs: [{ artifactType: "test-results", artifactId: "tests" }],
  });
  await start("write-tests", CAROL);
  const tests1 = await publish(
    { id: "tests", type: "test-results", data: { total: 12, passed: 12, failed: 0 }, derivedFrom: ["api@v2"], contractId: "write-tests" },
    CAROL,
  );

  await contract({
    id: "document-api",
    assignee: "dave",
    dependencies: [{ type: "artifact", artifactId: "api" }],
    expectedOutputs: [{ artifactType: "custom", artifactId: "docs" }],
  });
  await start("document-api", DAVE);
  const docs1 = await publish({ id: "docs", data: { text: "how to log in" }, contractId: "document-api" }, DAVE);

  return { "schema@v1": schema1, "api@v1": api1, "api@v2": api2, "tests@v1": tests1, "docs@v1": docs1 };
}
