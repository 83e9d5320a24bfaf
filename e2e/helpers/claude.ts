/**
 * The real, pinned `claude` CLI, isolated per run: its own HOME, CLAUDE_CONFIG_DIR and TMPDIR,
 * no inherited ANTHROPIC_* / CLAUDE_* variables, pointed at the fake Messages API, and the
 * variables that keep it off the network.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { ROOT, runnerEnv } from "./hub-process.ts";

/**
 * Which supported release the tests run (docs/distribution.md#claude-code-versions): the current one pinned as
 * @anthropic-ai/claude-code, or with TEAMHUB_TEST_CLAUDE=oldest the oldest supported one (the devDependency
 * claude-code-oldest), so a change in the CLI's protocol shows up as a failing session test.
 */
const CLAUDE_BINS = { current: "node_modules/.bin/claude", oldest: "node_modules/claude-code-oldest/bin/claude.exe" } as const;
const which = process.env.TEAMHUB_TEST_CLAUDE || "current";
if (!(which in CLAUDE_BINS)) throw new Error(`TEAMHUB_TEST_CLAUDE must be one of ${Object.keys(CLAUDE_BINS).join(", ")}, not '${which}'`);

export const CLAUDE_BIN = path.join(ROOT, CLAUDE_BINS[which as keyof typeof CLAUDE_BINS]);

/**
 * What each release does by itself that tests state: the model a session gets when it names none (2.1.332 moved
 * from claude-opus-4-8[1m] to claude-opus-5-5), and that model's list price per million input tokens, which the CLI
 * prices a turn at (so a cost limit's figures follow it).
 */
export const CLAUDE_DEFAULTS = {
  current: { model: "claude-opus-5-5", inputUsdPerMTok: 4 },
  oldest: { model: "claude-opus-4-8[1m]", inputUsdPerMTok: 5 },
}[which as keyof typeof CLAUDE_BINS];

/**
 * A work-tree port range of its own (TEAMHUB_PORT_RANGE, 100 ports from `first`) for a test file whose run commands
 * listen on their session's PORT. The `oldest` project runs the same files as `e2e`, at the same time: its hubs take
 * the range 500 above, or two run commands would both listen on the first port, and one test would reach the other's.
 */
export function portRangeFrom(first: number): string {
  // Below the kernel's ports for outgoing connections, as the hub's default range is (server/domain/worktrees/ports.ts).
  const from = first + (which === "oldest" ? 500 : 0);
  return `${from}-${from + 99}`;
}

/** What `tokens` input tokens cost on the default model, in dollars. */
export const inputCostUsd = (tokens: number) => (tokens * CLAUDE_DEFAULTS.inputUsdPerMTok) / 1_000_000;

/** The variables that point a `claude` at the fake API in its own HOME and keep it off the network. */
export function isolatedClaudeVars(apiUrl: string, home = tempDir("claude")): Record<string, string> {
  fs.mkdirSync(path.join(home, "tmp"), { recursive: true });
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    TMPDIR: path.join(home, "tmp"),
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_MAX_RETRIES: "1",
    // Print mode otherwise sends the first request before a slow-starting MCP server is connected.
    MCP_CONNECTION_NONBLOCKING: "false",
    // Current releases list MCP tools only through ToolSearch; the fake model's scripts call them by name, as the
    // hub's own sessions can (server/supervisor/launch.ts turns it off the same way).
    ENABLE_TOOL_SEARCH: "false",
  };
}

export function claudeEnv(apiUrl: string, home?: string): Record<string, string> {
  return { ...runnerEnv(), ...isolatedClaudeVars(apiUrl, home) };
}

export type ClaudeRun = { code: number | null; stdout: string; stderr: string };

/** One-shot `claude -p` with the given arguments; resolves when it exits (or is killed at the timeout). */
export function runClaude(args: string[], env: Record<string, string>, cwd: string, timeoutMs = 60_000): Promise<ClaudeRun> {
  return new Promise((resolve) => {
    const child = spawn(CLAUDE_BIN, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    // At `close`, once both streams have ended: at `exit` a loaded machine may not have delivered all of them yet.
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
