/**
 * The real, pinned `claude` CLI, isolated per run: its own HOME, CLAUDE_CONFIG_DIR and TMPDIR,
 * no inherited ANTHROPIC_* / CLAUDE_* variables, pointed at the fake Messages API, and the
 * variables that keep it off the network (see shared/reference/claude-cli-protocol.md).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { ROOT, runnerEnv } from "./hub-process.ts";

export const CLAUDE_BIN = path.join(ROOT, "node_modules/.bin/claude");

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
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
