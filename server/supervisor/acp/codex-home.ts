/**
 * The CODEX_HOME of one Codex session: codex reads its model, providers and MCP servers only from
 * `$CODEX_HOME/config.toml` (OPENAI_BASE_URL is ignored), so the hub writes one per session with its
 * own MCP server, over the operator's TEAMHUB_CODEX_CONFIG. Codex also keeps its rollouts there.
 */
import fs from "node:fs";
import path from "node:path";
import { parse, stringify, type TomlTable } from "smol-toml";
import { DomainError } from "../../errors.ts";
import { writePrivateFile } from "../../data-dir.ts";

export type CodexHomeConfig = {
  /** The hub's streamable HTTP MCP endpoint. */
  mcpUrl: string;
  /** The variable in codex's environment that holds the member's token: the file never holds it. */
  tokenEnvVar: string;
  /** TEAMHUB_CODEX_CONFIG: TOML for the model, its provider and anything else; the hub's MCP server wins over it. */
  operatorToml?: string;
  /** The session's own settings (its model, the approval policy), which win over the operator's. */
  settings?: TomlTable;
};

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function merge(base: TomlTable, over: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isTable(current) && isTable(value) ? merge(current, value) : value;
  }
  return out;
}

export function codexConfigToml(config: CodexHomeConfig): string {
  let operator: TomlTable = {};
  if (config.operatorToml) {
    try {
      operator = parse(config.operatorToml);
    } catch (e) {
      throw new DomainError("precondition_failed", `TEAMHUB_CODEX_CONFIG is not valid TOML: ${(e as Error).message}`, { field: "TEAMHUB_CODEX_CONFIG" });
    }
  }
  const hub: TomlTable = { mcp_servers: { teamhub: { url: config.mcpUrl, bearer_token_env_var: config.tokenEnvVar } } };
  return stringify(merge(merge(operator, config.settings ?? {}), hub));
}

/** Makes `dir` a CODEX_HOME with its config.toml; private, since codex keeps the session's transcript there. */
export function writeCodexHome(dir: string, config: CodexHomeConfig): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // writePrivateFile: a config.toml left from an earlier start keeps no wider mode than a new one gets.
  writePrivateFile(path.join(dir, "config.toml"), codexConfigToml(config));
}
