/**
 * Shared by the snapshot and gate tests: each operation called the way an adapter calls it,
 * input parsed with its lib/api schema (a bad input becomes the same invalid_input error, as a
 * rejected promise),
 * and the Quick Start chain that the replay tests run.
 */
import { PublishArtifactInput, GetArtifactInput, ListArtifactsInput } from "../../lib/api/artifacts.ts";
import { ContractRefInput, CreateContractInput } from "../../lib/api/contracts.ts";
import { PhaseGateInput, TeamResetInput } from "../../lib/api/gate.ts";
import { UpsertMemberInput } from "../../lib/api/roster.ts";
import { DiffInput, ListSnapshotsInput, ReplayInput, SnapshotRefInput, TakeSnapshotInput } from "../../lib/api/snapshots.ts";
import type { TempHub } from "./temp-hub.ts";
import { getArtifact, listArtifacts, publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { createContract, getContract } from "../domain/contracts/contracts.service.ts";
import { phaseGate } from "../domain/gate/phase-gate.service.ts";
import { teamReset } from "../domain/gate/team-reset.service.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { upsertMember } from "../domain/roster/roster.service.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { diff } from "../domain/snapshots/diff.ts";
import { replay, replayPreview, rollback, rollbackPreview } from "../domain/snapshots/rollback.service.ts";
import { deleteSnapshot, getSnapshot, listSnapshots, takeSnapshot } from "../domain/snapshots/snapshots.service.ts";
import { captureState } from "../domain/snapshots/state.ts";

type Raw = Record<string, unknown>;

export function kit(hub: TempHub, actor: Principal = OPERATOR) {
  return {
    create: async (input: Raw) => createContract(hub, actor, parseOrThrow(CreateContractInput, { title: "Work", assignee: "dev", ...input })),
    contract: async (id: string, team = "default") => getContract(hub, parseOrThrow(ContractRefInput, { id, team })),
    publish: async (input: Raw, by: Principal = actor) =>
      publishArtifact(hub, by, parseOrThrow(PublishArtifactInput, { type: "custom", data: { note: "x" }, ...input })),
    read: async (id: string, version?: number, by: Principal = actor) => getArtifact(hub, by, parseOrThrow(GetArtifactInput, { id, version })),
    artifacts: async (input: Raw = {}) => (await listArtifacts(hub, parseOrThrow(ListArtifactsInput, input))).items,
    join: async (name: string, status = "idle", currentTask?: string) =>
      upsertMember(hub, OPERATOR, parseOrThrow(UpsertMemberInput, { name, status, currentTask })),
    snapshot: async (input: Raw = {}) => takeSnapshot(hub, actor, parseOrThrow(TakeSnapshotInput, input)),
    list: async (input: Raw = {}) => listSnapshots(hub, parseOrThrow(ListSnapshotsInput, input)),
    get: async (id: string) => getSnapshot(hub, parseOrThrow(SnapshotRefInput, { id })),
    remove: async (id: string) => deleteSnapshot(hub, actor, parseOrThrow(SnapshotRefInput, { id })),
    rollback: async (id: string, team?: string) => rollback(hub, actor, parseOrThrow(SnapshotRefInput, { id, team })),
    replay: async (input: Raw) => replay(hub, actor, parseOrThrow(ReplayInput, input)),
    rollbackPreview: async (id: string, team?: string) => rollbackPreview(hub, actor, parseOrThrow(SnapshotRefInput, { id, team })),
    replayPreview: async (input: Raw) => replayPreview(hub, actor, parseOrThrow(ReplayInput, input)),
    diff: async (a: unknown, b?: unknown) => diff(hub, parseOrThrow(DiffInput, { a, b })),
    gate: async (input: Raw) =>
      phaseGate(hub, actor, parseOrThrow(PhaseGateInput, { phase_completing: "Phase 1", phase_starting: "Phase 2", expected_artifacts: [], ...input })),
    reset: async (input: Raw) => teamReset(hub, actor, parseOrThrow(TeamResetInput, input)),
    state: async (team = "default") => hub.db.read((sql) => captureState(sql, team)),
  };
}

export type Kit = ReturnType<typeof kit>;

/** The Quick Start chain's contracts: schema → API → tests, each expecting its artifact type. */
export async function createChain(k: Kit): Promise<void> {
  await k.create({ id: "setup-schema", assignee: "db-dev", title: "Create User schema", expectedOutputs: [{ artifactType: "schema-change" }] });
  await k.create({
    id: "build-api",
    assignee: "api-dev",
    title: "Build auth endpoints",
    inputs: { context: "Use REST" },
    dependencies: [{ type: "contract", contractId: "setup-schema" }],
    expectedOutputs: [{ artifactType: "api-contract" }],
  });
  await k.create({
    id: "write-tests",
    assignee: "qa-dev",
    title: "Write integration tests",
    dependencies: [{ type: "contract", contractId: "build-api" }],
    expectedOutputs: [{ artifactType: "test-results" }],
  });
}

/** One run of the chain's work; `style` ends up in the API artifact so runs can be told apart. */
export async function runChain(k: Kit, style: "REST" | "GraphQL"): Promise<void> {
  await k.publish({ id: "schema-user-model", type: "schema-change", data: { models: [{ name: "User", fields: ["email", "password"] }] } });
  await k.publish({
    id: "api-contract-user-auth",
    type: "api-contract",
    derivedFrom: ["schema-user-model"],
    data: { endpoints: [{ method: "POST", path: style === "REST" ? "/login" : "/graphql" }] },
  });
  await k.publish({ id: "test-results-auth", type: "test-results", derivedFrom: ["api-contract-user-auth"], data: { total: 12, passed: 12, failed: 0 } });
}
