/**
 * Composition root. One Node http server: Host/Origin guard first, then pages and /api to
 * Next.js (App Router), WebSocket upgrades on /ws to the event hub, and the background
 * scheduler. Migrations run before anything listens. Nothing else constructs these pieces.
 */
import { WorktreeCommands } from "./supervisor/worktree-commands.ts";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import type { Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type next from "next";
import nextConfig from "../next.config.ts";
import { connectDatabase, migrateDatabase } from "./db/open.ts";
import { ensureOperatorToken, tokenHash } from "./domain/auth/tokens.service.ts";
import { OPERATOR } from "./domain/principal.ts";
import { readEnv, type HubEnv } from "./env.ts";
import { EventBus } from "./events/bus.ts";
import { MAX_BODY_BYTES } from "./http/handle.ts";
import { createHostGuard, isLoopbackAddress, type GuardFailure } from "./http/host-guard.ts";
import { createSessionPeerCheck } from "./http/session-peer.ts";
import { onClientError, refuse, refuseRaw } from "./http/refusals.ts";
import { apiRouter } from "./http/api-router.ts";
import { ROUTES } from "./http/routes.ts";
import { DB_FILES, secureDataDir, writePrivateFile } from "./data-dir.ts";
import { startScheduler } from "./scheduler.ts";
import { startPresence } from "./hub-presence.ts";
import { registerHub, stopHub, sweepLostHubs } from "./domain/hubs/hubs.service.ts";
import { PipelineRunner } from "./domain/pipelines/runner.ts";
import { WebhookDispatcher } from "./domain/notifications/dispatcher.ts";
import { WEBHOOK_HEADER } from "./domain/notifications/signature.ts";
import { createServices } from "./services.ts";
import { createWsHub, type WsIdentity } from "./ws/hub.ts";
import { startLogFeed } from "./events/log-feed.ts";
import { createMcpHttp } from "./mcp/http.ts";
import type { ToolDef } from "./mcp/tool.ts";
import { PROJECT_ROOT, hubVersion } from "./version.ts";
import { TOOLS } from "./mcp/tools.ts";
import { Supervisor } from "./supervisor/supervisor.ts";
import { TranscriptFeed } from "./supervisor/transcript-feed.ts";
import { childEnv, resolveClaudeBin } from "./supervisor/launch.ts";
import { resolveCodexBin } from "./supervisor/acp/codex-bin.ts";
import type { RuntimeName } from "./runtimes.ts";
import { checkSandbox } from "./supervisor/sandbox-check.ts";
import { probeClaudeCode } from "./claude-version.ts";

export const HUB_FILE = "hub.json";
/** How long the hub keeps an idle HTTP connection open; advertised to clients as `Keep-Alive: timeout=65`. */
export const KEEP_ALIVE_MS = 65_000;

const guardDetails = (f: GuardFailure) => ({ field: f.field, rule: f.rule });

export type RunningHub = { url: string; port: number; close(): Promise<void> };

/**
 * `mcpExtraTools` exists for benchmarks that compare against a trivial tool on the same transport. `onDeclaredLost` runs
 * after the hub closed itself because another hub declared it lost (docs/hubs.md#lost); the CLI's process exits then.
 */
export async function startHub(env: HubEnv = readEnv(), options: { mcpExtraTools?: ToolDef[]; onDeclaredLost?: () => void } = {}): Promise<RunningHub> {
  const log = (msg: string) => env.quiet || console.log(`[teamhub] ${msg}`);
  if (!env.dev && !fs.existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID"))) {
    throw new Error("no production build of the dashboard: run `npm run build` (or start with --dev)");
  }
  if (!isLoopbackAddress(env.host) && env.requireToken === false) {
    throw new Error(
      `TEAMHUB_REQUIRE_TOKEN=0 is refused when listening beyond loopback (TEAMHUB_HOST=${env.host}): every request must carry a token there. ` +
        "Unset TEAMHUB_REQUIRE_TOKEN, or listen on 127.0.0.1.",
    );
  }
  const databaseFile = env.database.kind === "sqlite" ? env.database.file : null;
  secureDataDir(env.dataDir, databaseFile);
  const migrated = await migrateDatabase(env.database);
  if (migrated.applied.length) log(`applied migrations: ${migrated.applied.join(", ")}`);

  const bus = new EventBus();
  // SQLite gives its -wal and -shm files the database file's mode, which secureDataDir set.
  const db = connectDatabase(env.database, bus, { synchronous: env.synchronous, backgroundCheckpoints: true, hub: env.hub.id });
  const sandbox = checkSandbox(env.claude.sandbox, env.claude.bwrap);
  if (sandbox.kind === "none") {
    console.warn(`[teamhub] WARNING: sessions will NOT be sandboxed (${sandbox.reason}); the full preset and safety-off are refused`);
  }
  const sandboxConfig =
    sandbox.kind === "bubblewrap"
      ? { bwrap: sandbox.bin, hidden: [env.dataDir, ...(databaseFile ? DB_FILES.map((suffix) => databaseFile + suffix) : [])] }
      : null;
  const feed = new TranscriptFeed();
  // Work trees' setup, run and archive commands run in the sessions' sandbox (docs/worktrees.md#runnable-work-trees).
  const commands = new WorktreeCommands({ deps: { db, bus }, dataDir: env.dataDir, feed, sandbox: sandboxConfig });
  const deps = { db, bus, commands };
  await ensureOperatorToken(deps, env.dataDir);
  const requireToken = env.requireToken ?? !isLoopbackAddress(env.host);
  const binaries: Record<RuntimeName, () => unknown> = {
    claude: () => resolveClaudeBin(env.claude, childEnv(env.claude)),
    codex: () => resolveCodexBin({ CODEX_ACP_BIN: env.runtimes.codex.bin }),
  };
  const preflight = (runtime: RuntimeName) => void binaries[runtime]();
  const info = {
    version: hubVersion(),
    startedAt: new Date(),
    requireToken,
    dataDir: env.dataDir,
    sessionWorkDir: env.claude.workDir,
    sandbox: sandbox.kind,
    maxLiveSessions: env.maxLiveSessions,
    portRange: env.portRange,
    claudeCode: probeClaudeCode(env.claude, log, (m) => console.warn(`[teamhub] WARNING: ${m}`)),
    webhooks: env.webhooks,
    runtimes: env.runtimes.specs,
  };
  const svc = createServices(deps, info, { preflight });
  const api = apiRouter(ROUTES, svc);

  const guard = createHostGuard(env.allowedHosts);
  const ws = createWsHub(bus, svc, feed);
  const mcp = createMcpHttp(svc, bus, { requireToken, extraTools: options.mcpExtraTools });
  const eventLog = await startLogFeed(db, bus);
  type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  // Next.js loads its server and the dashboard's code when the first page is asked for, not at start: a hub that
  // serves no page (an agent's, a script's) is ready ~0.3 s sooner, on ~0.3 s less CPU (docs/architecture.md#processes).
  // In production the config is passed, not looked up: the installed package has no next.config.ts to transpile.
  let app: ReturnType<typeof next> | null = null;
  let pages: Promise<Handler> | null = null;
  const preparePages = async (): Promise<Handler> => {
    const port = (server.address() as { port: number }).port;
    app ??= (await import("next")).default({
      dev: env.dev,
      dir: PROJECT_ROOT,
      hostname: env.host,
      port,
      httpServer: server,
      quiet: env.quiet,
      conf: env.dev ? undefined : nextConfig,
    });
    await app.prepare();
    return app.getRequestHandler() as Handler;
  };
  const handlePage: Handler = async (req, res) => {
    // A failed start is tried again at the next page rather than remembered.
    pages ??= preparePages().catch((e: unknown) => {
      pages = null;
      throw e;
    });
    return (await pages)(req, res);
  };

  let supervisor: Supervisor | null = null;
  const peers = createSessionPeerCheck(() => supervisor?.livePids() ?? []);
  /** A tokenless caller is the operator on a hub that requires no token, but never when it is a session's process. */
  const sessionWithoutToken = async (socket: Socket) => !requireToken && (await peers.fromSession(socket));
  const WEBHOOK_CALLER = "a hub's webhook request is not a request to a hub (docs/notifications.md#security)";
  const SESSION_PEER = "requests from a supervised session must carry its own token (its MCP config has it); only the operator's tools may omit one";

  const server = http.createServer(async (req, res) => {
    const failure = guard(req);
    if (failure) return refuse(res, 403, "forbidden", failure.message, guardDetails(failure));
    // A webhook a hub sends is never a caller: one pointed at a hub's own address would otherwise act as the operator.
    if (req.headers[WEBHOOK_HEADER] !== undefined) return refuse(res, 403, "forbidden", WEBHOOK_CALLER, { field: WEBHOOK_HEADER, rule: "not_a_caller" });
    if (req.headers.authorization === undefined && (await sessionWithoutToken(req.socket))) {
      return refuse(res, 401, "unauthorized", SESSION_PEER, { field: "Authorization", rule: "session_token" });
    }
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
      return refuse(res, 413, "too_large", `the request body must be at most ${MAX_BODY_BYTES} bytes`, { field: "body", rule: "max_size" });
    }
    const url = new URL(req.url ?? "/", "http://hub");
    const failed = (what: string) => (e: unknown) => {
      console.error(`[teamhub] ${what} request failed:`, e);
      if (!res.headersSent) refuse(res, 500, "internal", "internal error; see the hub's log", {});
    };
    if (url.pathname === "/mcp") return void mcp.handle(req, res).catch(failed("/mcp"));
    if (url.pathname.startsWith("/api/")) {
      // Bodies declare their length, so the size limit above holds before a byte of one is read.
      if (req.headers["transfer-encoding"] !== undefined) {
        return refuse(res, 411, "length_required", "/api request bodies must be sent with a Content-Length", { field: "body", rule: "content_length" });
      }
      return void api(req, res, url).catch(failed("/api"));
    }
    handlePage(req, res).catch(failed("page"));
  });
  server.on("clientError", onClientError);
  server.on("connection", (socket: Socket) => peers.accepted(socket));
  // An idle keep-alive socket is closed by the client first: Node's agent gives up after 5 s, fetch a second
  // before the hint below. Were the hub to close at the same moment, a request sent on the socket just then
  // fails with "socket hang up" (a client whose event loop was busy for a few seconds hits it every time).
  // Shutdown does not wait for idle sockets: it closes every connection.
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  server.on("upgrade", (req, socket, head) => {
    const requested = new URL(req.url ?? "/", "http://hub");
    if (requested.pathname !== "/ws") {
      // In dev, Next attaches its own upgrade listener for HMR; in production nothing else may upgrade.
      if (!env.dev) socket.destroy();
      return;
    }
    const failure = guard(req);
    if (failure) return refuseRaw(socket, 403, "forbidden", failure.message, guardDetails(failure));
    const token = requested.searchParams.get("token");
    // Without a token, only a hub that requires none lets the caller in, as the operator (as /api does).
    const identity: Promise<WsIdentity | null> = token
      ? svc.auth.authenticate(token).then(
          (principal) => ({ principal, token: tokenHash(token) }),
          () => null,
        )
      : sessionWithoutToken(req.socket).then((refused) => (requireToken || refused ? null : { principal: OPERATOR, token: null }));
    void identity.then((who) => {
      if (who) return ws.handleUpgrade(req, socket, head, who);
      refuseRaw(socket, 401, "unauthorized", "a valid ?token= is required", { field: "token", rule: "valid_token" });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const host = env.host.includes(":") ? `[${env.host}]` : env.host;
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;

  // Registered before anything acts on sessions, so other hubs see it beat before it claims one (docs/hubs.md).
  await registerHub(deps, { id: env.hub.id, url, host: os.hostname(), pid: process.pid, dataDir: env.dataDir, version: info.version });
  await sweepLostHubs(deps, env.hub.lostAfterMs, env.maxLiveSessions);
  const scheduler = startScheduler(deps, env.schedulerIntervalMs);
  // Pipelines run after commit, from the event log; started last so it sees a ready hub.
  const pipelines = new PipelineRunner(deps);
  pipelines.start(bus);
  // Webhooks go out after commit, from the event log, with links to this hub's dashboard.
  info.webhooks = { ...env.webhooks, dashboardUrl: url };
  const webhooks = new WebhookDispatcher(deps, info.webhooks);
  await webhooks.start(bus);
  supervisor = new Supervisor({
    deps,
    claude: env.claude,
    runtimes: env.runtimes,
    maxLive: env.maxLiveSessions,
    hubUrl: url,
    dataDir: env.dataDir,
    feed,
    hubReadTools: new Set(TOOLS.filter((t) => t.annotations.readOnlyHint).map((t) => t.name)),
    sandbox: sandboxConfig,
    commands,
  });
  await supervisor.start();
  const presence = startPresence(deps, { ...env.hub, maxLive: env.maxLiveSessions }, () => void running.close().then(() => options.onDeclaredLost?.()));

  const hubFile = path.join(env.dataDir, HUB_FILE);
  // Written whole and renamed into place: the CLI and tests poll for this file and must never read half of it.
  writePrivateFile(`${hubFile}.tmp`, JSON.stringify({ url, pid: process.pid, startedAt: new Date().toISOString() }));
  fs.renameSync(`${hubFile}.tmp`, hubFile);
  log(`listening on ${url} (data: ${env.dataDir}${requireToken ? ", tokens required" : ""})`);

  let closing: Promise<void> | undefined;
  const running: RunningHub = {
    url,
    port,
    close() {
      closing ??= (async () => {
        presence.stop();
        await supervisor.close();
        await scheduler.stop();
        await pipelines.stop();
        await webhooks.stop();
        await eventLog.stop();
        await mcp.close();
        ws.close();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await app?.close().catch(() => {});
        await stopHub(deps, env.hub.id, env.maxLiveSessions);
        await db.close();
        fs.rmSync(hubFile, { force: true });
      })();
      return closing;
    },
  };
  return running;
}

async function main() {
  const hub = await startHub(readEnv(), { onDeclaredLost: () => process.exit(1) });
  const stop = () => {
    void hub.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`[teamhub] failed to start: ${(e as Error).message}`);
    process.exit(1);
  });
}
