/**
 * The services table every door calls: each operation of the catalog bound to the hub's context (server/operations/),
 * taking the acting principal and an already-parsed input, so an adapter is: parse → pick an entry → map errors. The
 * server hands it to each door it builds (server/server.ts). Besides the operations, the doors' own steps that no
 * caller can ask for: authenticating a bearer token, and `/ws`'s replay of the events a client missed.
 */
import type { ClaudeCodeProbe } from "./claude-version.ts";
import type { DomainDeps } from "./domain/deps.ts";
import { OPERATOR } from "./domain/principal.ts";
import { authenticate } from "./domain/auth/tokens.service.ts";
import { eventsAfter, lastEventId } from "./domain/events/events.service.ts";
import { worktreesDir } from "./domain/worktrees/isolate.ts";
import type { PortRange } from "./domain/worktrees/ports.ts";
import type { WebhookConfig } from "./domain/notifications/config.ts";
import type { ServiceContext } from "./operations/context.ts";
import { serve } from "./operations/index.ts";
import { DEFAULT_RUNTIME, isRuntimeName, type RuntimeName, type RuntimeTable } from "./runtimes.ts";

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
  const served = serve(ctx);
  return {
    ...served,
    info,
    /** For reads done on the hub's own behalf (resource listings, completions). */
    operator: OPERATOR,
    /** The doors' own step before any operation: the bearer token to its principal (refused when unknown or revoked). */
    auth: { ...served.auth, authenticate: (token: string) => authenticate(deps, token) },
    events: {
      ...served.events,
      /** `/ws`'s replay of what a client missed, for the teams it may see. */
      after: (i: { teams: string[]; after: number; limit: number }) => eventsAfter(deps, i),
      lastId: () => lastEventId(deps),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
