/**
 * Shared by the snapshot and gate tests: each operation called the way an adapter calls it (./operations.ts), input
 * parsed by its endpoint's schema (a bad input becomes the same invalid_input error, as a rejected promise), and the
 * Quick Start chain that the replay tests run.
 */
import { api } from "../../lib/api/endpoints/index.ts";
import type { TempHub } from "./temp-hub.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { captureState } from "../domain/snapshots/state.ts";
import { operations } from "./operations.ts";

type Raw = Record<string, unknown>;

export function kit(hub: TempHub, actor: Principal = OPERATOR) {
  const call = operations(hub);
  return {
    create: async (input: Raw) => call(api.contracts.create, actor, { title: "Work", assignee: "dev", ...input }),
    contract: async (id: string, team = "default") => call(api.contracts.get, actor, { id, team }),
    publish: async (input: Raw, by: Principal = actor) => call(api.artifacts.publish, by, { type: "custom", data: { note: "x" }, ...input }),
    read: async (id: string, version?: number, by: Principal = actor) => call(api.artifacts.get, by, { id, version }),
    artifacts: async (input: Raw = {}) => (await call(api.artifacts.list, actor, input)).items,
    join: async (name: string, status = "idle", currentTask?: string) => call(api.roster.upsert, OPERATOR, { name, status, currentTask }),
    snapshot: async (input: Raw = {}) => call(api.snapshots.take, actor, input),
    list: async (input: Raw = {}) => call(api.snapshots.list, actor, input),
    get: async (id: string) => call(api.snapshots.get, actor, { id }),
    remove: async (id: string) => call(api.snapshots.delete, actor, { id }),
    rollback: async (id: string, team?: string) => call(api.snapshots.rollback, actor, { id, team }),
    replay: async (input: Raw) => call(api.snapshots.replay, actor, input),
    rollbackPreview: async (id: string, team?: string) => call(api.snapshots.rollbackPreview, actor, { id, team }),
    replayPreview: async (input: Raw) => call(api.snapshots.replayPreview, actor, input),
    diff: async (a: unknown, b?: unknown) => call(api.snapshots.diff, actor, { a, b }),
    gate: async (input: Raw) => call(api.gate.check, actor, { phase_completing: "Phase 1", phase_starting: "Phase 2", expected_artifacts: [], ...input }),
    reset: async (input: Raw) => call(api.gate.reset, actor, input),
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
