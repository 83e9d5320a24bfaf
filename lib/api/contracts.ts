import { z } from "zod";
import { EntityId, MemberName, TypeName } from "../ids.ts";
import { JsonObject, Limit, Cursor, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const Dependency = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("contract"), contractId: EntityId }),
    z.object({ type: z.literal("artifact"), artifactId: EntityId, minVersion: z.number().int().min(1).optional() }),
  ],
  { error: "must be {type: 'contract', contractId} or {type: 'artifact', artifactId, minVersion?}" },
);
export type Dependency = z.infer<typeof Dependency>;

export const ExpectedOutput = z.object({
  artifactType: TypeName,
  artifactId: EntityId.optional(),
  required: z.boolean().default(true),
});
export type ExpectedOutput = z.infer<typeof ExpectedOutput>;

export const Criterion = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("artifact_published"), artifactId: EntityId, minVersion: z.number().int().min(1).optional() }),
    z.object({
      type: z.literal("tests_passing"),
      artifactId: EntityId,
      minPassRate: z.number().min(0).max(1).default(1),
      maxFailed: z.number().int().min(0).default(0),
    }),
    z.object({ type: z.literal("contract_completed"), contractId: EntityId }),
    z.object({ type: z.literal("all_outputs_published") }),
  ],
  { error: "must be one of artifact_published, tests_passing, contract_completed, all_outputs_published" },
);
export type Criterion = z.infer<typeof Criterion>;

export const Priority = z.enum(["low", "normal", "high", "critical"]);
export type Priority = z.infer<typeof Priority>;
export const ContractStatus = z.enum(["pending", "ready", "in_progress", "completed", "failed"]);
export type ContractStatus = z.infer<typeof ContractStatus>;

// Thirty days: a deadline further out is almost certainly a unit mistake (seconds for ms).
const MAX_TIMEOUT_MS = 30 * 24 * 3600 * 1000;

export const CreateContractInput = z.object({
  team: TeamParam,
  id: EntityId,
  title: z.string().min(1, { error: "must not be empty" }).max(200),
  description: z.string().max(20_000).default(""),
  assignee: MemberName,
  inputs: JsonObject.default({}),
  dependencies: z.array(Dependency).max(100).default([]),
  expectedOutputs: z.array(ExpectedOutput).max(50).default([]),
  acceptanceCriteria: z.array(Criterion).max(50).default([]),
  priority: Priority.default("normal"),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  maxRetries: z.number().int().min(0).max(100).default(3),
});
export type CreateContractInput = z.input<typeof CreateContractInput>;
export type CreateContract = z.infer<typeof CreateContractInput>;

export const ContractRefInput = z.object({ team: TeamParam, id: EntityId });
export type ContractRefInput = z.infer<typeof ContractRefInput>;

export const CompleteContractInput = ContractRefInput.extend({
  summary: z.string().max(2000).optional(),
  force: z.boolean().default(false),
  reason: z.string().min(1).max(2000).optional(),
});
export type CompleteContractInput = z.infer<typeof CompleteContractInput>;

export const ReasonInput = ContractRefInput.extend({ reason: z.string().min(1, { error: "must not be empty" }).max(2000) });
export type ReasonInput = z.infer<typeof ReasonInput>;

export const ReopenContractInput = ContractRefInput.extend({ reason: z.string().min(1).max(2000).default("reopened") });
export type ReopenContractInput = z.infer<typeof ReopenContractInput>;

export const ReassignContractInput = ContractRefInput.extend({ assignee: MemberName });
export type ReassignContractInput = z.infer<typeof ReassignContractInput>;

export const DependencyChangeInput = ContractRefInput.extend({ dependency: Dependency });
export type DependencyChangeInput = z.infer<typeof DependencyChangeInput>;

export const ListContractsInput = z.object({
  team: TeamParam,
  status: ContractStatus.optional(),
  assignee: MemberName.optional(),
  assigner: MemberName.optional(),
  limit: Limit,
  cursor: Cursor,
});
export type ListContractsInput = z.infer<typeof ListContractsInput>;

// ── Responses ──

/** An input version a contract pinned when it started, or an output it recorded when it completed. */
export const PinnedVersion = z.object({ artifactId: z.string(), version: z.number().int(), seq: z.number().int() });
export type PinnedVersion = z.output<typeof PinnedVersion>;

export const ContractView = z.object({
  id: z.string(),
  team: z.string(),
  title: z.string(),
  description: z.string(),
  assigner: z.string(),
  assignee: z.string(),
  inputs: JsonObject,
  dependencies: z.array(Dependency),
  expectedOutputs: z.array(ExpectedOutput),
  acceptanceCriteria: z.array(Criterion),
  priority: Priority,
  timeoutMs: z.number().int().nullable(),
  deadlineAt: IsoDate.nullable(),
  maxRetries: z.number().int(),
  retryCount: z.number().int(),
  status: ContractStatus,
  statusReason: z.string().nullable(),
  pinnedInputs: z.array(PinnedVersion).nullable(),
  outputs: z.array(PinnedVersion).nullable(),
  startedAt: IsoDate.nullable(),
  completedAt: IsoDate.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ContractView = z.output<typeof ContractView>;

/** A contract state change a command caused, directly or through a cascade. */
export const Effect = z.object({ contractId: z.string(), from: ContractStatus, to: ContractStatus, reason: z.string().nullable() });
export type Effect = z.output<typeof Effect>;

/** The contract after a command that can cascade (create, complete), and every change it caused, in order. */
export const ContractChange = ContractView.extend({ effects: z.array(Effect) });
export type ContractChange = z.output<typeof ContractChange>;

export const ContractPage = z.object({ items: z.array(ContractView), nextCursor: z.number().int().nullable() });
export type ContractPage = z.output<typeof ContractPage>;

/** The started contract, its inputs and the input artifact versions it pinned, with their data. */
export const StartResult = z.object({
  contract: ContractView,
  inputs: JsonObject,
  resolvedInputs: z.array(z.object({ artifactId: z.string(), version: z.number().int(), type: z.string(), name: z.string(), data: z.unknown() })),
});
export type StartResult = z.output<typeof StartResult>;
