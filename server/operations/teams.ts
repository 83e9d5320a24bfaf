/** Teams and their settings, the roster, the event log, the phase gate, and the views of a team the dashboard reads. */
import { infoOf } from "../claude-version.ts";
import { archiveTeam, createTeam, listTeams } from "../domain/teams/teams.service.ts";
import { runQuickStartDemo } from "../domain/teams/quickstart-demo.ts";
import { getTeamSettings, updateTeamSettings } from "../domain/teams/settings.ts";
import { teamPermissions } from "../domain/auth/permissions.ts";
import { listRoster, upsertMember } from "../domain/roster/roster.service.ts";
import { listEvents } from "../domain/events/events.service.ts";
import { phaseGate } from "../domain/gate/phase-gate.service.ts";
import { teamReset } from "../domain/gate/team-reset.service.ts";
import { overview as overviewOf } from "../domain/overview/overview.service.ts";
import { graphView } from "../domain/graph/graph-view.ts";
import { area } from "./define.ts";
import { A_VIEW, ADMINISTRATION, LIMIT, TEAM } from "./fields.ts";

const none = { none: ADMINISTRATION };

export const teams = area("teams", {
  list: { may: "member", serve: ({ deps }) => listTeams(deps), mcp: none },
  create: { may: "member", serve: ({ deps }, a, i) => createTeam(deps, a, i), mcp: none },
  archive: { may: "team.archive", serve: ({ deps }, a, i) => archiveTeam(deps, a, i), mcp: none },
  demo: { may: "team.demo", serve: ({ deps }, a, i) => runQuickStartDemo(deps, a, i), mcp: none },
  settings: { may: "member", serve: ({ deps }, _, i) => getTeamSettings(deps, i), mcp: none },
  updateSettings: { may: "team.settings", serve: ({ deps }, a, i) => updateTeamSettings(deps, a, i), mcp: none },
  permissions: { may: "member", serve: ({ deps }, a, i) => teamPermissions(deps, a, i), mcp: none },
});

export const gate = area("gate", {
  check: {
    may: "member",
    serve: ({ deps }, a, i) => phaseGate(deps, a, i),
    mcp: {
      name: "phase_gate",
      title: "Phase gate",
      description:
        "Check a phase is really done before starting the next: the expected artifacts exist and have data (your read is recorded), the named members (or everyone) are idle, " +
        "and the named consumers read the current versions. Returns a pass/fail report per check with a recommendation; a pass is counted and allows the next spawn batch.",
      describe: {
        team: TEAM,
        phase_completing: "The phase that just finished, e.g. 'Phase 0: Foundation'.",
        phase_starting: "The phase about to start.",
        expected_artifacts: "Artifact ids the finished phase must have produced.",
        expected_idle: "Members that must be idle now; omit to require the whole roster.",
        expected_readers: "{artifactId: [member, …]}: who must have read each artifact's current version.",
      },
    },
  },
  reset: {
    may: "team.reset",
    serve: ({ deps }, a, i) => teamReset(deps, a, i),
    mcp: {
      name: "team_reset",
      title: "Reset the team",
      description:
        "Clear the team's artifacts (archived, every version kept), messages (archived), contracts, roster, pipelines and gate state, after an automatic snapshot; " +
        "roll back to that snapshot (snapshotId in the result) to undo. Needs confirm: true.",
      describe: { team: TEAM, confirm: "Must be true.", preserve_artifacts: "Artifact ids to keep exactly as they are." },
    },
  },
});

export const roster = area("roster", {
  list: {
    may: "member",
    serve: ({ deps }, _, i) => listRoster(deps, i),
    mcp: {
      name: "team_roster",
      title: "Team roster",
      description: "The team's members with role, status, current task and when they were last seen.",
      describe: { team: TEAM },
    },
  },
  upsert: {
    may: "roster.update",
    serve: ({ deps }, a, i) => upsertMember(deps, a, i),
    mcp: { none: "team_update_status carries it, defaulting the name to the caller" },
  },
});

export const events = area("events", {
  list: {
    may: { "hub: true": "events.hub", otherwise: "member" },
    serve: ({ deps }, a, i) => listEvents(deps, a, i),
    mcp: {
      name: "team_events",
      title: "Team event log",
      description: "The team's event log: the newest events, or with 'after' the events following that id (oldest first).",
      describe: {
        team: TEAM,
        after: "Only events after this event id.",
        type: "Only events of this type, e.g. 'artifact.published'.",
        hub: "Hub-wide events (tokens) instead.",
        limit: LIMIT,
      },
    },
  },
});

export const health = area("health", {
  get: {
    may: "member",
    serve: async ({ info }) => ({
      ok: true,
      version: info.version,
      startedAt: info.startedAt,
      requireToken: info.requireToken,
      sandbox: info.sandbox,
      maxLiveSessions: info.maxLiveSessions,
      claudeCode: info.claudeCode?.current() ?? infoOf(null),
    }),
    mcp: { none: `${A_VIEW}; server_version answers an agent` },
  },
});

export const overview = area("overview", {
  get: { may: "member", serve: ({ deps }, a, i) => overviewOf(deps, a, i), mcp: { none: A_VIEW } },
});

/** The canvas: contracts and artifacts of a team as one graph. */
export const graph = area("graph", {
  get: { may: "member", serve: ({ deps }, _, i) => graphView(deps, i), mcp: { none: A_VIEW } },
});
