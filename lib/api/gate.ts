/** Inputs of the phase gate and team reset (docs/domain.md#phase-gate), named as the MCP tools name them. */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";

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
