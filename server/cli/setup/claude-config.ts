/**
 * Registering the hub with Claude Code. With a `claude` binary (CLAUDE_BIN or on PATH) this is
 * `claude mcp add --transport http …`, so Claude Code owns its own files; without one, the same
 * entry is written into its config file (~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json):
 * per project ("local" scope) or for every project ("user" scope).
 */
import { z } from "zod";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const SERVER_NAME = "teamhub";
export type Scope = "local" | "user";
type Entry = { type: "http"; url: string; headers: Record<string, string> };
const Servers = z.record(z.string(), z.unknown());
/** Claude Code's own config file: only what setup touches is described; the rest is kept as it is. */
const Config = z.looseObject({
  mcpServers: Servers.optional(),
  projects: z.record(z.string(), z.looseObject({ mcpServers: Servers.optional() })).optional(),
});
type Config = z.output<typeof Config>;

export function claudeDir(): string {
  return process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), ".claude");
}

export function claudeConfigFile(): string {
  return process.env.CLAUDE_CONFIG_DIR ? path.join(process.env.CLAUDE_CONFIG_DIR, ".claude.json") : path.join(os.homedir(), ".claude.json");
}

export function findClaude(): string | null {
  if (process.env.CLAUDE_BIN) return fs.existsSync(process.env.CLAUDE_BIN) ? process.env.CLAUDE_BIN : null;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "claude");
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function run(bin: string, args: string[], cwd: string) {
  const r = spawnSync(bin, args, { cwd, encoding: "utf8", timeout: 60_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim() };
}

function readConfig(file: string): Config | null {
  return fs.existsSync(file) ? Config.parse(JSON.parse(fs.readFileSync(file, "utf8"))) : null;
}

function entriesOf(config: Config, scope: Scope, projectDir: string, create: boolean): Record<string, unknown> | undefined {
  if (scope === "user") return create ? (config.mcpServers ??= {}) : config.mcpServers;
  const projects = create ? (config.projects ??= {}) : config.projects;
  const project = projects && (create ? (projects[projectDir] ??= {}) : projects[projectDir]);
  return project && (create ? (project.mcpServers ??= {}) : project.mcpServers);
}

/** Empties left behind by a removal go too, so a file we created disappears when our entry does. */
function prune(config: Config, scope: Scope, projectDir: string) {
  if (scope === "user" && config.mcpServers && Object.keys(config.mcpServers).length === 0) delete config.mcpServers;
  const project = config.projects?.[projectDir];
  if (project?.mcpServers && Object.keys(project.mcpServers).length === 0) delete project.mcpServers;
  if (project && Object.keys(project).length === 0) delete config.projects![projectDir];
  if (config.projects && Object.keys(config.projects).length === 0) delete config.projects;
}

export function register(scope: Scope, projectDir: string, entry: Entry): string {
  const claude = findClaude();
  if (claude) {
    run(claude, ["mcp", "remove", SERVER_NAME, "-s", scope], projectDir);
    const headers = Object.entries(entry.headers).flatMap(([k, v]) => ["--header", `${k}: ${v}`]);
    // --header takes several values, so it must come after the name and URL it would otherwise swallow.
    const r = run(claude, ["mcp", "add", "--scope", scope, "--transport", "http", SERVER_NAME, entry.url, ...headers], projectDir);
    if (!r.ok) throw new Error(`claude mcp add failed: ${r.output}`);
    return `claude mcp add --scope ${scope} --transport http ${SERVER_NAME} ${entry.url}`;
  }
  const file = claudeConfigFile();
  const config = readConfig(file) ?? {};
  entriesOf(config, scope, projectDir, true)![SERVER_NAME] = entry;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return `wrote ${SERVER_NAME} into ${file} (${scope === "user" ? "all projects" : projectDir})`;
}

export function unregister(scope: Scope, projectDir: string): string {
  const claude = findClaude();
  if (claude) {
    const r = run(claude, ["mcp", "remove", SERVER_NAME, "-s", scope], projectDir);
    return r.ok ? `claude mcp remove ${SERVER_NAME} -s ${scope}` : `no ${SERVER_NAME} server in Claude Code's ${scope} config`;
  }
  const file = claudeConfigFile();
  const config = readConfig(file);
  const entries = config && entriesOf(config, scope, projectDir, false);
  if (!config || !entries || !(SERVER_NAME in entries)) return `no ${SERVER_NAME} server in ${file}`;
  delete entries[SERVER_NAME];
  prune(config, scope, projectDir);
  if (Object.keys(config).length === 0) fs.rmSync(file);
  else fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return `removed ${SERVER_NAME} from ${file}`;
}
