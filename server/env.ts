/**
 * The only reader of process.env for the hub. Every variable is listed in .env.example.
 */
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { databaseLocation, type DatabaseLocation } from "./db/open.ts";
import { defaultMaxLive } from "./domain/sessions/admission.ts";
import { parsePortRange, type PortRange } from "./domain/worktrees/ports.ts";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "./domain/notifications/config.ts";
import { chooseDataDir, type DataDirOrigin } from "./data-dir.ts";
import { codexModelsFrom, runtimesFrom, type Runtimes } from "./runtimes.ts";

/**
 * `marginMs`: held turns go this long after the reset the API named; `staggerMs`: between one held session's turns
 * and the next's; `retries`/`retryBaseMs`: a turn the API refused as rate limited or overloaded is sent again this many
 * times, after max(retry-after, base × 2^attempt).
 */
export type LimitTiming = { marginMs: number; staggerMs: number; retries: number; retryBaseMs: number };

export const DEFAULT_LIMIT_TIMING: LimitTiming = { marginMs: 10_000, staggerMs: 3000, retries: 3, retryBaseMs: 2000 };

const Env = z.object({
  TEAMHUB_HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Unset: ~/.teamhub, or ./data where an earlier version left a hub's data (server/data-dir.ts).
  TEAMHUB_DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  // Extra Host/Origin names accepted besides loopback (comma-separated), for a hub behind a proxy.
  TEAMHUB_ALLOWED_HOSTS: z.string().default(""),
  // WAL + NORMAL survives a process crash (kill -9); FULL also survives power loss, at a cost per commit.
  TEAMHUB_SQLITE_SYNCHRONOUS: z.enum(["normal", "full"]).default("normal"),
  TEAMHUB_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  TEAMHUB_DEV: z.enum(["0", "1"]).default("0"),
  TEAMHUB_QUIET: z.enum(["0", "1"]).default("0"),
  // Require a token on every request even on loopback (default: only when listening elsewhere).
  TEAMHUB_REQUIRE_TOKEN: z.enum(["0", "1"]).optional(),
  // The Claude Code CLI the supervisor runs (default: `claude` on PATH).
  CLAUDE_BIN: z.string().optional(),
  // Variables every supervised session gets, as a JSON object; nothing else of the hub's environment is inherited but a safe base (PATH, HOME, locale…)
  // and, unless TEAMHUB_CLAUDE_INHERIT_CREDENTIALS=0, what the hub's own `claude` would authenticate with (see server/supervisor/launch.ts).
  TEAMHUB_CLAUDE_ENV: z.string().default("{}"),
  TEAMHUB_CLAUDE_INHERIT_CREDENTIALS: z.enum(["0", "1"]).default("1"),
  // More of the hub's own variables to pass through to sessions, comma-separated (e.g. CLAUDE_CODE_USE_BEDROCK,AWS_PROFILE).
  TEAMHUB_CLAUDE_PASS_ENV: z.string().default(""),
  // Codex members (docs/runtimes.md): the codex-acp binary (default: the pinned @zed-industries/codex-acp's native one),
  // TOML written into each Codex session's config.toml (model, model provider…), variables its process gets (JSON, as
  // TEAMHUB_CLAUDE_ENV), and the models a session may ask for with their prices (JSON; default: OpenAI's list prices).
  CODEX_ACP_BIN: z.string().optional(),
  TEAMHUB_CODEX_CONFIG: z.string().default(""),
  TEAMHUB_CODEX_ENV: z.string().default("{}"),
  TEAMHUB_CODEX_MODELS: z.string().optional(),
  // Working directory of sessions spawned without one.
  TEAMHUB_WORK_DIR: z.string().optional(),
  // A busy session with no stream event for this long is flagged stalled; 1 also interrupts it.
  TEAMHUB_STALL_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(10),
  TEAMHUB_STALL_INTERRUPT: z.enum(["0", "1"]).default("0"),
  // Sessions holding a `claude` process at once; more wait as `queued`. Unset: derived from cores and memory; 0: no limit.
  TEAMHUB_MAX_LIVE_SESSIONS: z.coerce.number().int().min(0).max(10_000).optional(),
  // The sessions' OS sandbox (docs/security.md#sandbox): auto uses bubblewrap when it works here; off runs sessions unsandboxed,
  // in which case the full preset and safety-off are refused.
  TEAMHUB_SANDBOX: z.enum(["auto", "off"]).default("auto"),
  // The bubblewrap binary (default: bwrap on PATH).
  TEAMHUB_BWRAP: z.string().min(1).default("bwrap"),
  // Hubs sharing one database (docs/hubs.md): this hub's id (default: host name and a digest of the data dir), how often it
  // beats its heartbeat, and after how long without one another hub declares it lost and interrupts its sessions.
  TEAMHUB_HUB_ID: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, { error: "letters, digits and . _ : - (at most 100)" })
    .optional(),
  TEAMHUB_HEARTBEAT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  TEAMHUB_HUB_LOST_MS: z.coerce.number().int().min(200).max(600_000).default(15_000),
  // Ports handed to work-tree sessions (docs/worktrees.md#ports): FIRST-LAST.
  TEAMHUB_PORT_RANGE: z.string().optional(),
  // Webhooks (docs/notifications.md#retries): one request's time limit, attempts per delivery, the first pause between them.
  TEAMHUB_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(DEFAULT_WEBHOOK_CONFIG.timeoutMs),
  TEAMHUB_WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(DEFAULT_WEBHOOK_CONFIG.attempts),
  TEAMHUB_WEBHOOK_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(DEFAULT_WEBHOOK_CONFIG.retryBaseMs),
  // Usage limits (docs/limits.md): held turns go this long after the reset, this far apart per session.
  TEAMHUB_LIMIT_MARGIN_MS: z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_LIMIT_TIMING.marginMs),
  TEAMHUB_LIMIT_STAGGER_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_LIMIT_TIMING.staggerMs),
  // Rate limits for API keys: a 429/529 the CLI gave up on is sent again this many times, backing off from this base.
  TEAMHUB_API_RETRIES: z.coerce.number().int().min(0).max(20).default(DEFAULT_LIMIT_TIMING.retries),
  TEAMHUB_API_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(DEFAULT_LIMIT_TIMING.retryBaseMs),
});

export type HubEnv = {
  host: string;
  port: number;
  dataDir: string;
  dataDirOrigin: DataDirOrigin;
  database: DatabaseLocation;
  allowedHosts: string[];
  synchronous: "normal" | "full";
  schedulerIntervalMs: number;
  dev: boolean;
  quiet: boolean;
  requireToken: boolean | undefined;
  /** The admission limit (0: none); see server/domain/sessions/admission.ts. */
  maxLiveSessions: number;
  hub: { id: string; heartbeatMs: number; lostAfterMs: number };
  /** Where work-tree sessions' ports come from (docs/worktrees.md#ports). */
  portRange: PortRange;
  /** How webhooks are delivered (docs/notifications.md#retries); the dashboard's address is added at start. */
  webhooks: WebhookConfig;
  claude: ClaudeConfig;
  /** The agents a session can run, Claude Code's and the others' (docs/runtimes.md). */
  runtimes: Runtimes;
};

export type ClaudeConfig = {
  bin: string | undefined;
  env: Record<string, string>;
  passEnv: string[];
  /** Pass the hub's ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, … and CLAUDE_CONFIG_DIR to sessions (default). */
  inheritCredentials: boolean;
  workDir: string;
  stallMs: number;
  interruptStalled: boolean;
  sandbox: "auto" | "off";
  bwrap: string;
  /** Usage and rate limits (docs/limits.md): how a held account is released and refused turns are sent again. */
  limits: LimitTiming;
};

const EnvObject = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "variable names must be identifiers" }), z.string());

/** TEAMHUB_CLAUDE_ENV, TEAMHUB_CODEX_ENV: a JSON object of variables. */
function envObjectFrom(name: string, text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = EnvObject.safeParse(value);
  if (!parsed.success) throw new Error(`${name}: must be a JSON object of string values (${parsed.error.issues[0].message})`);
  return parsed.data;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): HubEnv {
  const e = Env.parse(source);
  const { dir: dataDir, origin: dataDirOrigin } = chooseDataDir(e.TEAMHUB_DATA_DIR);
  return {
    host: e.TEAMHUB_HOST,
    port: e.PORT,
    dataDir,
    dataDirOrigin,
    database: databaseLocation(e.DATABASE_URL, dataDir),
    allowedHosts: e.TEAMHUB_ALLOWED_HOSTS.split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    synchronous: e.TEAMHUB_SQLITE_SYNCHRONOUS,
    schedulerIntervalMs: e.TEAMHUB_SCHEDULER_INTERVAL_MS,
    dev: e.TEAMHUB_DEV === "1",
    quiet: e.TEAMHUB_QUIET === "1",
    requireToken: e.TEAMHUB_REQUIRE_TOKEN === undefined ? undefined : e.TEAMHUB_REQUIRE_TOKEN === "1",
    maxLiveSessions: e.TEAMHUB_MAX_LIVE_SESSIONS ?? defaultMaxLive(),
    hub: { id: e.TEAMHUB_HUB_ID ?? defaultHubId(dataDir), heartbeatMs: e.TEAMHUB_HEARTBEAT_MS, lostAfterMs: e.TEAMHUB_HUB_LOST_MS },
    portRange: parsePortRange(e.TEAMHUB_PORT_RANGE),
    webhooks: {
      ...DEFAULT_WEBHOOK_CONFIG,
      timeoutMs: e.TEAMHUB_WEBHOOK_TIMEOUT_MS,
      attempts: e.TEAMHUB_WEBHOOK_ATTEMPTS,
      retryBaseMs: e.TEAMHUB_WEBHOOK_RETRY_MS,
    },
    claude: {
      bin: e.CLAUDE_BIN || undefined,
      env: envObjectFrom("TEAMHUB_CLAUDE_ENV", e.TEAMHUB_CLAUDE_ENV),
      passEnv: e.TEAMHUB_CLAUDE_PASS_ENV.split(",")
        .map((n) => n.trim())
        .filter(Boolean),
      inheritCredentials: e.TEAMHUB_CLAUDE_INHERIT_CREDENTIALS === "1",
      workDir: path.resolve(e.TEAMHUB_WORK_DIR ?? process.cwd()),
      stallMs: Math.round(e.TEAMHUB_STALL_MINUTES * 60_000),
      interruptStalled: e.TEAMHUB_STALL_INTERRUPT === "1",
      sandbox: e.TEAMHUB_SANDBOX,
      bwrap: e.TEAMHUB_BWRAP,
      limits: {
        marginMs: e.TEAMHUB_LIMIT_MARGIN_MS,
        staggerMs: e.TEAMHUB_LIMIT_STAGGER_MS,
        retries: e.TEAMHUB_API_RETRIES,
        retryBaseMs: e.TEAMHUB_API_RETRY_BASE_MS,
      },
    },
    runtimes: runtimesFrom({
      bin: e.CODEX_ACP_BIN || undefined,
      toml: e.TEAMHUB_CODEX_CONFIG,
      env: envObjectFrom("TEAMHUB_CODEX_ENV", e.TEAMHUB_CODEX_ENV),
      models: codexModelsFrom(e.TEAMHUB_CODEX_MODELS),
    }),
  };
}

/** Stable across restarts (so a restarted hub recovers its own sessions) and distinct for two hubs on one machine. */
function defaultHubId(dataDir: string): string {
  return `${os.hostname()}-${createHash("sha256").update(dataDir).digest("hex").slice(0, 6)}`;
}
