/**
 * How a session's `claude` process is started: the binary, the arguments for a fresh, resumed
 * or forked conversation, and an environment built from scratch (docs/domain.md#the-binary-and-its-environment): of the hub's own Claude
 * and Anthropic setup only what authenticates passes, so a `claude` that works in the shell that
 * started the hub works in its sessions, and a hub started from inside Claude Code does not make
 * its sessions believe they are nested.
 */
import fs from "node:fs";
import path from "node:path";
import { DomainError } from "../errors.ts";
import type { ClaudeConfig } from "../env.ts";
import type { SessionRow } from "../db/rows.ts";
import type { StoredSafety } from "../../lib/api/sessions.ts";
import { ASK_RULES } from "./policy.ts";

/** A fork names its parent's conversation, the parent (whose session dir holds it) and the last message its CLI reported. */
export type LaunchMode = { kind: "fresh" } | { kind: "resume" } | { kind: "fork"; from: string; parentDir: string; through: string | null };

// What a CLI needs to run at all; anything else passes only when listed below or named in the hub's configuration.
export const BASE_VARIABLES = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TZ",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
];
/**
 * What the CLI (2.1.x) authenticates with: an API key or a bearer token, the endpoint they are valid
 * for, a long-lived login token (`claude setup-token`), and the config dir holding the interactive
 * login (`.credentials.json`; without CLAUDE_CONFIG_DIR that is ~/.claude, found through HOME). The
 * session's CLI gets that login, not that config dir: config-dir.ts gives it one of its own. Nesting
 * markers (CLAUDECODE, CLAUDE_CODE_ENTRYPOINT, …) and every other ANTHROPIC_* / CLAUDE_* setting stay behind.
 */
export const CREDENTIAL_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR"];

/** Supervised sessions are not interactive: no updater, no side calls the hub did not ask for. */
const SESSION_DEFAULTS = {
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  // Newer CLIs hide MCP tools behind ToolSearch; the hub's tools must be callable directly.
  ENABLE_TOOL_SEARCH: "false",
  // Print mode may otherwise send the first turn before the hub's MCP server is connected.
  MCP_CONNECTION_NONBLOCKING: "false",
};

/** The variables of `source` named in `names` that it has: how an agent's environment starts, nothing passing unlisted. */
export function picked(names: readonly string[], source: Record<string, string | undefined> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) if (source[name] !== undefined) env[name] = source[name]!;
  return env;
}

export function childEnv(config: ClaudeConfig, source: Record<string, string | undefined> = process.env): Record<string, string> {
  // passEnv is named by the operator, so any variable may pass that way.
  const inherited = [...BASE_VARIABLES, ...(config.inheritCredentials ? CREDENTIAL_VARIABLES : []), ...config.passEnv];
  return { ...picked(inherited, source), ...SESSION_DEFAULTS, ...config.env };
}

export function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** CLAUDE_BIN, else `claude` on the PATH the sessions get; a clear error when neither exists. */
export function resolveClaudeBin(config: ClaudeConfig, env: Record<string, string>): string {
  if (config.bin) {
    if (executable(config.bin)) return config.bin;
    throw new DomainError("precondition_failed", `CLAUDE_BIN is '${config.bin}', which is not an executable file`, { field: "CLAUDE_BIN" });
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, "claude");
    if (executable(candidate)) return candidate;
  }
  throw new DomainError(
    "precondition_failed",
    "the Claude Code CLI was not found: install it (npm i -g @anthropic-ai/claude-code) so that `claude` is on PATH, or set CLAUDE_BIN to its path",
    { field: "CLAUDE_BIN" },
  );
}

export function claudeArgs(s: SessionRow, safety: StoredSafety, mode: LaunchMode, mcpConfigFile: string): string[] {
  // Partial messages let the dashboard show the model's text as it streams.
  const args = [
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-partial-messages",
    "--permission-prompt-tool",
    "stdio",
  ];
  args.push("--permission-mode", s.preset === "plan" ? "plan" : "default");
  // Ask rules make the CLI bring every built-in tool call to the hub's policy, even ones it would allow itself.
  args.push("--settings", JSON.stringify({ permissions: { ask: ASK_RULES } }));
  args.push("--mcp-config", mcpConfigFile, "--strict-mcp-config");
  if (mode.kind === "fresh") args.push("--session-id", s.claudeSessionId!);
  else if (mode.kind === "resume") args.push("--resume", s.claudeSessionId!);
  else args.push("--resume", mode.from, "--fork-session", "--session-id", s.claudeSessionId!);
  if (s.model) args.push("--model", s.model);
  if (s.systemPrompt) args.push("--append-system-prompt", s.systemPrompt);
  if (s.agent) args.push("--agent", s.agent);
  const budget = [s.maxBudgetUsd, safety.enabled ? safety.maxCostUsd - s.costUsd : null].filter((v): v is number => v !== null && v !== undefined);
  if (budget.length) args.push("--max-budget-usd", String(Math.max(0.0001, Math.min(...budget))));
  if (safety.enabled) args.push("--max-turns", String(Math.max(1, safety.maxTurns - s.turns)));
  return args;
}

/** The session's MCP config: this hub's /mcp with the session's own token, loaded eagerly. */
export function mcpConfig(hubUrl: string, token: string) {
  return { mcpServers: { teamhub: { type: "http", url: `${hubUrl}/mcp`, headers: { Authorization: `Bearer ${token}` }, alwaysLoad: true } } };
}
