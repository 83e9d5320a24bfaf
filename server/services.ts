/**
 * The table of domain operations every front door calls, composed of one table per area (./services/): each entry
 * takes the acting principal and an already-parsed input, so an adapter is: parse → pick an entry → map errors. The
 * server hands it to each door it builds (server/server.ts); server/operations.ts holds each entry to its endpoint.
 */
import type { Health } from "../lib/api/health.ts";
import { infoOf, type ClaudeCodeProbe } from "./claude-version.ts";
import type { DomainDeps } from "./domain/deps.ts";
import { OPERATOR } from "./domain/principal.ts";
import { overview } from "./domain/overview/overview.service.ts";
import { graphView } from "./domain/graph/graph-view.ts";
import type { GraphInput } from "../lib/api/graph.ts";
import type { Principal } from "./domain/principal.ts";
import { worktreesDir } from "./domain/worktrees/isolate.ts";
import type { PortRange } from "./domain/worktrees/ports.ts";
import type { WebhookConfig } from "./domain/notifications/config.ts";
import type { ServiceContext } from "./services/context.ts";
import { DEFAULT_RUNTIME, isRuntimeName, type RuntimeName, type RuntimeTable } from "./runtimes.ts";
import { authServices, leadServices } from "./services/access.ts";
import { budgetServices, hubServices, limitServices, rosterServices, teamServices } from "./services/teams.ts";
import { artifactServices, contractServices, lineageServices } from "./services/artifacts.ts";
import { eventServices, gateServices, snapshotServices } from "./services/history.ts";
import { pipelineServices, webhookServices } from "./services/pipelines.ts";
import { chatServices, continuityServices, knowledgeServices } from "./services/team-memory.ts";
import { runtimeServices, sessionServices, worktreeServices } from "./services/sessions.ts";

/**
 * `sandbox`: whether sessions run in the OS sandbox here (docs/security.md#sandbox); without it, full and safety-off are refused.
 * `maxLiveSessions`: the admission limit on sessions holding a `claude` process (0: no limit).
 */
export type HubInfo = {
  version: string;
  startedAt: Date;
  requireToken: boolean;
  dataDir: string;
  sessionWorkDir: string;
  sandbox: "bubblewrap" | "none";
  maxLiveSessions: number;
  /** Ports for work-tree sessions (TEAMHUB_PORT_RANGE; default DEFAULT_PORT_RANGE). */
  portRange?: PortRange;
  /** How webhooks are delivered (TEAMHUB_WEBHOOK_*; default DEFAULT_WEBHOOK_CONFIG). */
  webhooks?: WebhookConfig;
  /** The Claude Code CLI the sessions run and its version, learnt at start (server/claude-version.ts). */
  claudeCode?: ClaudeCodeProbe;
  /** The agents a session can run (server/runtimes.ts; docs/runtimes.md). */
  runtimes: RuntimeTable;
};

/** What only the hub process can check before a session is written: the binary of each runtime it will run. */
export type SessionRuntime = { preflight(runtime: RuntimeName): void };

export function createServices(deps: DomainDeps, info: HubInfo, runtime?: SessionRuntime) {
  const ctx: ServiceContext = {
    deps,
    info,
    defaults: {
      workDir: info.sessionWorkDir,
      sandbox: info.sandbox,
      maxLive: info.maxLiveSessions,
      worktreesDir: worktreesDir(info.dataDir),
      portRange: info.portRange,
      runtimes: info.runtimes,
    },
    preflight: (names, fn) => {
      // A name the hub does not know is left to the domain, which refuses it in the words every door gives.
      for (const name of new Set(names.map((n) => n ?? DEFAULT_RUNTIME))) if (isRuntimeName(name)) runtime?.preflight(name);
      return fn();
    },
  };
  return {
    info,
    /** For reads done on the hub's own behalf (resource listings, completions). */
    operator: OPERATOR,
    health: async (): Promise<Health> => ({
      ok: true,
      version: info.version,
      startedAt: info.startedAt,
      requireToken: info.requireToken,
      sandbox: info.sandbox,
      maxLiveSessions: info.maxLiveSessions,
      claudeCode: info.claudeCode?.current() ?? infoOf(null),
    }),
    auth: authServices(ctx),
    leads: leadServices(ctx),
    hubs: hubServices(ctx),
    webhooks: webhookServices(ctx),
    budgets: budgetServices(ctx),
    teams: teamServices(ctx),
    events: eventServices(ctx),
    overview: (a: Principal, i: { team: string }) => overview(deps, a, i),
    artifacts: artifactServices(ctx),
    contracts: contractServices(ctx),
    lineage: lineageServices(ctx),
    /** The canvas: contracts and artifacts of a team as one graph. */
    graph: (_: Principal, i: GraphInput) => graphView(deps, i),
    snapshots: snapshotServices(ctx),
    gate: gateServices(ctx),
    pipelines: pipelineServices(ctx),
    roster: rosterServices(ctx),
    chat: chatServices(ctx),
    continuity: continuityServices(ctx),
    knowledge: knowledgeServices(ctx),
    sessions: sessionServices(ctx),
    runtimes: runtimeServices(ctx),
    limits: limitServices(ctx),
    worktrees: worktreeServices(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
