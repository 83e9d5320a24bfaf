/**
 * The session-continuity hooks (docs/domain.md#continuity) in a Claude Code settings file: one entry per event
 * (SessionStart, Stop, PreCompact, SessionEnd), each running `teamhub hook <event>` through this
 * project's node and bin/teamhub.mjs by absolute path, with the setup's token. Our entries are
 * recognised by that command, so re-running replaces them in place and --uninstall removes
 * exactly them; the user's own hooks and settings stay as they were, in their order and indent.
 */
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../version.ts";
import type { HookEvent } from "../../../lib/api/continuity.ts";
import { CliError, EXIT } from "../api-client.ts";
import { claudeDir, type Scope } from "./claude-config.ts";
import { forget, makeDirs, recall, remember, removeCreated } from "./created-paths.ts";
import { excludeFromGit, removeExclusion } from "./git-exclude.ts";

export const HOOKS: Record<string, HookEvent> = { SessionStart: "session-start", Stop: "stop", PreCompact: "pre-compact", SessionEnd: "session-end" };

const BIN = path.join(PROJECT_ROOT, "bin", "teamhub.mjs");
// A safety net over the hook's own limits (5 s per hub call and per git call).
const TIMEOUT_SECONDS = 30;
const OURS = /teamhub\.mjs'? hook (session-start|stop|pre-compact|session-end)(\s|$)/;

type Handler = { type?: unknown; command?: unknown; timeout?: unknown };
type Group = { hooks?: Handler[] } & Record<string, unknown>;
type Settings = { hooks?: Record<string, Group[]> } & Record<string, unknown>;
type Parsed = { settings: Settings; indent: string | number; existed: boolean };

export function settingsFile(scope: Scope, project: string): string {
  return scope === "user" ? path.join(claudeDir(), "settings.json") : path.join(project, ".claude", "settings.local.json");
}

/** POSIX shell quoting: Claude Code runs hook commands through a shell. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function hookCommand(event: HookEvent, hub: { url: string; token: string; team: string }): string {
  return `TEAMHUB_TOKEN=${q(hub.token)} ${q(process.execPath)} ${q(BIN)} hook ${event} --url ${q(hub.url)} --team ${q(hub.team)}`;
}

const isOurs = (g: Group) => g.hooks?.length === 1 && g.hooks[0].type === "command" && typeof g.hooks[0].command === "string" && OURS.test(g.hooks[0].command);

/** The settings as they are; a file that is not a settings object is refused before anything changes. */
export function readSettings(file: string): Parsed {
  if (!fs.existsSync(file)) return { settings: {}, indent: 2, existed: false };
  const text = fs.readFileSync(file, "utf8");
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (e) {
    throw new CliError(EXIT.badInput, `${file}: is not valid JSON (${(e as Error).message}); fix it or move it away, nothing was changed`);
  }
  const hooks = (settings as Settings | null)?.hooks;
  if (
    typeof settings !== "object" ||
    settings === null ||
    Array.isArray(settings) ||
    (hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)))
  ) {
    throw new CliError(EXIT.badInput, `${file}: must be a JSON object whose "hooks" is an object; nothing was changed`);
  }
  for (const [event, groups] of Object.entries(hooks ?? {})) {
    if (!Array.isArray(groups)) throw new CliError(EXIT.badInput, `${file}: hooks.${event} must be an array; nothing was changed`);
  }
  return { settings: settings as Settings, indent: /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? 2, existed: true };
}

/** Whether setup's hooks are there: a re-run without --hooks still renews their token. A file that cannot be read has none. */
export function hasHooks(file: string): boolean {
  try {
    const { settings } = readSettings(file);
    return Object.keys(HOOKS).some((name) => settings.hooks?.[name]?.some(isOurs));
  } catch {
    return false;
  }
}

function write(file: string, p: Parsed) {
  fs.writeFileSync(file, `${JSON.stringify(p.settings, null, p.indent)}\n`, p.existed ? {} : { mode: 0o600 });
}

/**
 * The hooks carry the token, so a file others may read (a global settings.json is usually 0644)
 * becomes private to the user; returns the mode it had, which --uninstall restores.
 */
function makePrivate(file: string): number | undefined {
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  fs.chmodSync(file, mode & 0o700);
  return mode;
}

/** `keepOutOfGit`: the file is in a project, where a commit would publish the token. */
export function installHooks(file: string, dataDir: string, command: (event: HookEvent) => string, keepOutOfGit: boolean): string {
  const parsed = readSettings(file);
  const hooks = (parsed.settings.hooks ??= {});
  for (const [name, event] of Object.entries(HOOKS)) {
    const entry: Group = { hooks: [{ type: "command", command: command(event), timeout: TIMEOUT_SECONDS }] };
    const groups = hooks[name] ?? [];
    const at = groups.findIndex(isOurs);
    hooks[name] = at === -1 ? [...groups, entry] : groups.flatMap((g, i) => (i === at ? [entry] : isOurs(g) ? [] : [g]));
  }
  const dirs = makeDirs(path.dirname(file));
  write(file, parsed);
  const mode = makePrivate(file);
  const exclusion = keepOutOfGit ? excludeFromGit(file) : null;
  remember(dataDir, file, { file: !parsed.existed, dirs, ...(exclusion ? { exclusion } : {}), ...(mode !== undefined ? { mode } : {}) });
  return `${parsed.existed ? "updated" : "created"} ${file} (${Object.keys(HOOKS).join(", ")})`;
}

export function uninstallHooks(file: string, dataDir: string): string {
  const created = recall(dataDir, file);
  const parsed = readSettings(file);
  let removed = 0;
  for (const name of Object.keys(HOOKS)) {
    const groups = parsed.settings.hooks?.[name];
    if (!groups) continue;
    const kept = groups.filter((g) => !isOurs(g));
    removed += groups.length - kept.length;
    if (kept.length) parsed.settings.hooks![name] = kept;
    else delete parsed.settings.hooks![name];
  }
  if (removed) {
    if (parsed.settings.hooks && Object.keys(parsed.settings.hooks).length === 0) delete parsed.settings.hooks;
    write(file, parsed);
  }
  removeCreated(file, created);
  removeExclusion(created?.exclusion);
  forget(dataDir, file);
  return removed ? `removed ${removed} hook entries from ${file}` : `no teamhub hooks in ${file}`;
}
