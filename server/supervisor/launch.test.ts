import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMIT_TIMING, readEnv, type ClaudeConfig } from "../env.ts";
import type { SessionRow } from "../db/rows.ts";
import { tempDir } from "../testing/temp-dir.ts";
import { childEnv, claudeArgs, mcpConfig, resolveClaudeBin } from "./launch.ts";

const config: ClaudeConfig = {
  bin: undefined,
  env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
  passEnv: ["MY_KEY"],
  inheritCredentials: true,
  workDir: "/w",
  stallMs: 600_000,
  limits: DEFAULT_LIMIT_TIMING,
  interruptStalled: false,
  sandbox: "auto",
  bwrap: "bwrap",
};

/** A shell running inside Claude Code, with a key and a login of its own: what a hub started there inherits. */
const SHELL = {
  PATH: "/bin",
  HOME: "/h",
  SECRET_TOKEN: "x",
  MY_KEY: "k",
  ANTHROPIC_API_KEY: "sk-ant-key",
  ANTHROPIC_AUTH_TOKEN: "bearer",
  ANTHROPIC_BASE_URL: "https://gateway.example",
  CLAUDE_CODE_OAUTH_TOKEN: "oauth",
  CLAUDE_CONFIG_DIR: "/h/.claude-work",
  // Nesting markers and the parent's own settings.
  CLAUDECODE: "1",
  CLAUDE_CODE_ENTRYPOINT: "cli",
  CLAUDE_CODE_SSE_PORT: "41234",
  CLAUDE_AGENT_SDK_VERSION: "0.1.0",
  ANTHROPIC_MODEL: "claude-opus-4",
  CLAUDE_CODE_MAX_OUTPUT_TOKENS: "64000",
};
const SESSION_DEFAULTS = {
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  ENABLE_TOOL_SEARCH: "false",
  MCP_CONNECTION_NONBLOCKING: "false",
};

describe("the child environment", () => {
  it("passes the safe base, the hub's credentials and login dir, and named variables; never nesting markers or other Claude settings", () => {
    expect(childEnv({ ...config, env: {} }, SHELL)).toEqual({
      PATH: "/bin",
      HOME: "/h",
      ANTHROPIC_API_KEY: "sk-ant-key",
      ANTHROPIC_AUTH_TOKEN: "bearer",
      ANTHROPIC_BASE_URL: "https://gateway.example",
      CLAUDE_CODE_OAUTH_TOKEN: "oauth",
      CLAUDE_CONFIG_DIR: "/h/.claude-work",
      MY_KEY: "k",
      ...SESSION_DEFAULTS,
    });
  });

  it("lets the configured variables win over inherited ones", () => {
    expect(childEnv({ ...config, env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_API_KEY: "test" } }, SHELL)).toMatchObject({
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_AUTH_TOKEN: "bearer",
    });
  });

  it("with TEAMHUB_CLAUDE_INHERIT_CREDENTIALS=0, passes no credential unless configured or named", () => {
    const env = childEnv({ ...config, inheritCredentials: false, passEnv: ["ANTHROPIC_API_KEY"] }, SHELL);
    expect(env).toEqual({ PATH: "/bin", HOME: "/h", ANTHROPIC_API_KEY: "sk-ant-key", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ...SESSION_DEFAULTS });
    const hubEnv = (vars: Record<string, string>) => readEnv(vars as NodeJS.ProcessEnv).claude;
    expect(hubEnv({ TEAMHUB_CLAUDE_INHERIT_CREDENTIALS: "0" }).inheritCredentials).toBe(false);
    expect(hubEnv({}).inheritCredentials).toBe(true);
    expect(() => hubEnv({ TEAMHUB_CLAUDE_INHERIT_CREDENTIALS: "yes" })).toThrow(/TEAMHUB_CLAUDE_INHERIT_CREDENTIALS/);
  });

  it("passes only what is set", () => {
    expect(childEnv({ ...config, env: {}, passEnv: [] }, { PATH: "/bin" })).toEqual({ PATH: "/bin", ...SESSION_DEFAULTS });
  });
});

describe("the binary", () => {
  it("is CLAUDE_BIN when executable, else claude on PATH, else a clear error", () => {
    const dir = tempDir("bin");
    const bin = path.join(dir, "claude");
    fs.writeFileSync(bin, "#!/bin/sh\n", { mode: 0o755 });
    expect(resolveClaudeBin({ ...config, bin }, {})).toBe(bin);
    expect(resolveClaudeBin(config, { PATH: `/nowhere:${dir}` })).toBe(bin);
    expect(() => resolveClaudeBin(config, { PATH: "/nowhere" })).toThrow(/Claude Code CLI was not found.*CLAUDE_BIN/);
    expect(() => resolveClaudeBin({ ...config, bin: path.join(dir, "missing") }, {})).toThrow(/is not an executable file/);
    fs.chmodSync(bin, 0o644);
    expect(() => resolveClaudeBin({ ...config, bin }, {})).toThrow(/is not an executable file/);
  });
});

const row = (over: Partial<SessionRow> = {}): SessionRow =>
  ({ claudeSessionId: "sid", preset: "edit", model: null, systemPrompt: null, agent: null, maxBudgetUsd: null, costUsd: 0, turns: 0, ...over }) as SessionRow;
const safety = { enabled: true, maxCostUsd: 2, maxTurns: 50, timeoutMs: 1000, protectedPaths: [], approvalTimeoutMs: 1000 };
const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe("arguments", () => {
  it("run stream-json with the stdio permission tool, ask rules and the hub's MCP server", () => {
    const args = claudeArgs(row(), safety, { kind: "fresh" }, "/d/mcp.json");
    expect(args.slice(0, 10)).toEqual([
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--permission-prompt-tool",
      "stdio",
      "--permission-mode",
    ]);
    expect(after(args, "--permission-mode")).toBe("default");
    expect(JSON.parse(after(args, "--settings")).permissions.ask).toContain("Bash");
    expect(after(args, "--mcp-config")).toBe("/d/mcp.json");
    expect(args).toContain("--strict-mcp-config");
    expect(after(args, "--session-id")).toBe("sid");
    expect(after(args, "--max-budget-usd")).toBe("2");
    expect(after(args, "--max-turns")).toBe("50");
  });

  it("resume and fork name the conversation; limits shrink by what was spent", () => {
    const resumed = claudeArgs(row({ costUsd: 1.5, turns: 45, model: "sonnet", preset: "plan", maxBudgetUsd: 1 }), safety, { kind: "resume" }, "/m");
    expect(after(resumed, "--resume")).toBe("sid");
    expect(resumed).not.toContain("--session-id");
    expect(after(resumed, "--max-budget-usd")).toBe("0.5");
    expect(after(resumed, "--max-turns")).toBe("5");
    expect(after(resumed, "--model")).toBe("sonnet");
    expect(after(resumed, "--permission-mode")).toBe("plan");
    const forked = claudeArgs(row(), { ...safety, enabled: false }, { kind: "fork", from: "parent-sid", parentDir: "/parent", through: null }, "/m");
    expect(after(forked, "--resume")).toBe("parent-sid");
    expect(forked).toContain("--fork-session");
    expect(after(forked, "--session-id")).toBe("sid");
    expect(forked).not.toContain("--max-turns");
    expect(forked).not.toContain("--max-budget-usd");
  });

  it("the MCP config carries the session's token and loads the tools eagerly", () => {
    expect(mcpConfig("http://127.0.0.1:3000", "tok")).toEqual({
      mcpServers: { teamhub: { type: "http", url: "http://127.0.0.1:3000/mcp", headers: { Authorization: "Bearer tok" }, alwaysLoad: true } },
    });
  });
});
