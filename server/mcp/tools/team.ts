import { z } from "zod";
import { api } from "../../../lib/api/endpoints/index.ts";
import { MemberStatus, UpsertMemberInput } from "../../../lib/api/roster.ts";
import { tool } from "../tool.ts";
import { LIMIT, TEAM } from "./common.ts";

/** Status updates default to the caller's own roster entry. */
const UpdateStatusInput = UpsertMemberInput.extend({ name: UpsertMemberInput.shape.name.optional() });

export const teamTools = [
  tool({
    name: "phase_gate",
    title: "Phase gate",
    description:
      "Check a phase is really done before starting the next: the expected artifacts exist and have data (your read is recorded), the named members (or everyone) are idle, " +
      "and the named consumers read the current versions. Returns a pass/fail report per check with a recommendation; a pass is counted and allows the next spawn batch.",
    endpoint: api.gate.check,
    describe: {
      team: TEAM,
      phase_completing: "The phase that just finished, e.g. 'Phase 0: Foundation'.",
      phase_starting: "The phase about to start.",
      expected_artifacts: "Artifact ids the finished phase must have produced.",
      expected_idle: "Members that must be idle now; omit to require the whole roster.",
      expected_readers: "{artifactId: [member, …]}: who must have read each artifact's current version.",
    },
  }),
  tool({
    name: "team_reset",
    title: "Reset the team",
    description:
      "Clear the team's artifacts (archived, every version kept), messages (archived), contracts, roster, pipelines and gate state, after an automatic snapshot; " +
      "roll back to that snapshot (snapshotId in the result) to undo. Needs confirm: true.",
    endpoint: api.gate.reset,
    describe: { team: TEAM, confirm: "Must be true.", preserve_artifacts: "Artifact ids to keep exactly as they are." },
  }),
  tool({
    name: "team_roster",
    title: "Team roster",
    description: "The team's members with role, status, current task and when they were last seen.",
    endpoint: api.roster.list,
    describe: { team: TEAM },
  }),
  tool({
    name: "team_update_status",
    title: "Update your status",
    description: "Join the team or update your own roster entry: status (idle | busy | waiting | offline), role and current task.",
    schema: UpdateStatusInput,
    describe: {
      team: TEAM,
      name: "Only operators may update someone else; omit to update yourself.",
      role: "Your role, e.g. 'backend'.",
      status: `One of ${MemberStatus.options.join(", ")}.`,
      currentTask: "What you are working on now (null to clear).",
    },
    kind: "write",
    run: (s, actor, input) => s.roster.upsert(actor, { ...input, name: input.name ?? actor.name }),
  }),
  tool({
    name: "team_events",
    title: "Team event log",
    description: "The team's event log: the newest events, or with 'after' the events following that id (oldest first).",
    endpoint: api.events.list,
    describe: {
      team: TEAM,
      after: "Only events after this event id.",
      type: "Only events of this type, e.g. 'artifact.published'.",
      hub: "Hub-wide events (tokens) instead.",
      limit: LIMIT,
    },
  }),
  tool({
    name: "server_version",
    title: "Server version",
    description: "The hub's version, when it started, and who you are to it.",
    schema: z.object({}),
    kind: "read",
    run: async (s, actor) => ({ name: "teamhub", version: s.info.version, startedAt: s.info.startedAt, you: actor.name, kind: actor.kind }),
  }),
];
