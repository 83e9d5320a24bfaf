/** Inputs of the phase gate and team reset (docs/domain.md#phase-gate), named as the MCP tools name them. */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

const PhaseName = z.string().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" });

export const PhaseGateInput = z.object({
  team: TeamParam,
  phase_completing: PhaseName,
  phase_starting: PhaseName,
  expected_artifacts: z.array(EntityId).max(200, { error: "must list at most 200 artifacts" }),
  /** Members that must be idle; the whole roster when omitted. */
  expected_idle: z.array(MemberName).max(200, { error: "must list at most 200 members" }).optional(),
  /** `{artifactId: [member, …]}`: who must have read each artifact's current version. */
  expected_readers: z.record(EntityId, z.array(MemberName).max(200, { error: "must list at most 200 readers" })).optional(),
});
export type PhaseGateInput = z.infer<typeof PhaseGateInput>;

export const TeamResetInput = z.object({
  team: TeamParam,
  confirm: z.literal(true, {
    error: "must be exactly true: team_reset archives the team's artifacts and messages and removes its contracts, roster and pipelines",
  }),
  /** Artifacts left exactly as they are. */
  preserve_artifacts: z.array(EntityId).max(1000, { error: "must list at most 1000 artifacts" }).default([]),
});
export type TeamResetInput = z.infer<typeof TeamResetInput>;

// ── Responses ──

const ArtifactsExist = z.object({
  check: z.literal("artifacts_exist"),
  passed: z.boolean(),
  details: z.object({
    expected: z.array(z.string()),
    found: z.array(z.object({ artifactId: z.string(), version: z.number().int() })),
    /** `reason` says what to do about it: publish, publish again after a reset, publish a new version. */
    missing: z.array(z.object({ artifactId: z.string(), reason: z.string() })),
  }),
});

/** Each existing expected artifact read as the caller; `valid` is false when its data is empty. */
const ArtifactsValid = z.object({
  check: z.literal("artifacts_valid"),
  passed: z.boolean(),
  details: z.object({
    results: z.array(z.object({ artifactId: z.string(), version: z.number().int(), valid: z.boolean() })),
    readAs: z.string(),
    skipped: z.array(z.string()),
  }),
});

const MembersIdle = z.object({
  check: z.literal("members_idle"),
  passed: z.boolean(),
  details: z.object({
    checked: z.enum(["named members", "whole roster"]),
    members: z.array(z.object({ name: z.string(), status: z.string(), currentTask: z.string().nullable(), idle: z.boolean() })),
    notOnRoster: z.array(z.string()),
  }),
});

/** Per expected artifact, who read its current version, who only an older one, who none. */
export const ReadCheck = z.object({
  artifactId: z.string(),
  currentVersion: z.number().int().nullable(),
  expected: z.array(z.string()),
  readCurrent: z.array(z.string()),
  readOlderOnly: z.array(z.object({ name: z.string(), lastReadVersion: z.number().int() })),
  notRead: z.array(z.string()),
});
export type ReadCheck = z.output<typeof ReadCheck>;

const ArtifactsRead = z.object({
  check: z.literal("artifacts_read"),
  passed: z.boolean(),
  details: z.union([z.object({ note: z.string() }), z.object({ artifacts: z.array(ReadCheck) })]),
});

export const GateCheck = z.discriminatedUnion("check", [ArtifactsExist, ArtifactsValid, MembersIdle, ArtifactsRead]);
export type GateCheck = z.output<typeof GateCheck>;

export const GateReport = z.object({
  gate: z.string(),
  passed: z.boolean(),
  checks: z.array(GateCheck),
  recommendation: z.string(),
  /** The team's passing gates so far, this one included when it passed. */
  gateCount: z.number().int(),
  at: IsoDate,
});
export type GateReport = z.output<typeof GateReport>;

export const ResetSummary = z.object({
  team: z.string(),
  /** Roll back to this snapshot to undo the reset. */
  snapshotId: z.string(),
  preserved: z.array(z.string()),
  archived: z.object({ artifacts: z.number().int(), versions: z.number().int(), messages: z.number().int() }),
  removed: z.object({ contracts: z.number().int(), members: z.number().int(), pipelines: z.number().int() }),
});
export type ResetSummary = z.output<typeof ResetSummary>;
