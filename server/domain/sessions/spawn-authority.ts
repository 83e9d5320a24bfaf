/**
 * Spawning within the spawner's own authority (docs/security.md#capabilities), for every door that creates a session (spawn,
 * batch, fork, team_spawn, delegate). It returns the work dir and safety net the new session gets,
 * or refuses with the field and the rule it breaks before anything is written.
 *
 * - Everyone: where sessions are not sandboxed, no `full` preset and no safety off; everyone but the
 *   operator: no session named after a principal that holds a token (it would act as that principal).
 * - The operator and the team's leads: nothing more.
 * - A member or agent token: preset up to the team's `maxPreset`, safety on, limits up to the
 *   team's, no allowedTools unless `maxPreset` is full, work dir inside the team's root.
 * - A supervised session: preset up to its own, safety on, allowedTools only among its own (any
 *   when it is `full`), cost up to what it has left, turns and time up to its own, its protected
 *   paths kept, work dir inside its own. Limits left at the hub's defaults are lowered to fit.
 */
import type { PortRange } from "../worktrees/ports.ts";
import type { RuntimeTable } from "../../runtimes.ts";
import fs from "node:fs";
import path from "node:path";
import type { Sql } from "../../db/connection.ts";
import { stringsOf, type SessionRow } from "../../db/rows.ts";
import { DomainError, invalidField } from "../../errors.ts";
import { Preset, SAFETY_DEFAULTS, Safety, type SpawnInput } from "../../../lib/api/sessions.ts";
import { actsForAnyone, type Principal } from "../principal.ts";
import { isLead } from "../auth/capabilities.ts";
import { hasLiveToken } from "../auth/tokens.service.ts";
import { teamSettings } from "../teams/settings.ts";
import { findSession, safetyOf } from "./sessions.repo.ts";
import type { StoredSafety } from "../../../lib/api/sessions.ts";

/** Wider presets let a session do more without asking; read-only and plan only read. */
const PRESET_RANK: Record<Preset, number> = { "read-only": 0, plan: 0, review: 1, edit: 2, full: 3 };
const ORDER = "read-only = plan < review < edit < full";
const HUB_DEFAULTS = SAFETY_DEFAULTS;

/** `maxLive`: the admission limit on sessions holding a process (0: none), see admission.ts. */
/** `worktreesDir`: where sessions' work trees are made (docs/worktrees.md); without it every session shares its work dir. */
/** `portRange`: where work-tree sessions' ports come from (TEAMHUB_PORT_RANGE; docs/worktrees.md#ports). */
/** `runtimes`: the hub's table of the agents a session can run (server/runtimes.ts), which a request is checked against. */
export type SpawnDefaults = {
  workDir: string;
  sandbox: "bubblewrap" | "none";
  maxLive: number;
  worktreesDir?: string;
  portRange?: PortRange;
  runtimes: RuntimeTable;
};
type Granted = { workDir: string; safety: StoredSafety; maxBudgetUsd: number | null };

export type SpawnRequest = Pick<
  SpawnInput,
  "team" | "name" | "workDir" | "preset" | "allowedTools" | "maxBudgetUsd" | "maxTurns" | "safety" | "approvalTimeoutMs"
>;

function beyond(actor: Principal, field: string, rule: string, message: string, received?: unknown): DomainError {
  const details = { field, rule, operation: "session.spawn", principal: actor.name, ...(received === undefined ? {} : { received }) };
  return new DomainError("forbidden", `${field}: ${message}`, details);
}

/** Refuses a work dir that does not exist or is not a directory. */
export function checkWorkDir(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw invalidField("workDir", "exists", `directory '${dir}' does not exist`, dir);
  }
  if (!stat.isDirectory()) throw invalidField("workDir", "directory", `'${dir}' is not a directory`, dir);
}

function realDir(dir: string): string {
  checkWorkDir(dir);
  return fs.realpathSync(dir);
}

const inside = (dir: string, root: string) => dir === root || dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

function within(actor: Principal, workDir: string, root: string, whose: string): string {
  const real = realDir(workDir);
  const realRoot = realDir(root);
  if (!inside(real, realRoot)) {
    throw beyond(actor, "workDir", "inside_root", `'${workDir}'${real === workDir ? "" : ` (really '${real}')`} is outside ${whose} '${realRoot}'`, workDir);
  }
  // The real path is what was checked, so it is what the session gets: a symlink changed later cannot move it.
  return real;
}

/** The safety net as asked for, whole: `maxTurns` given beside `safety` wins, as it always has. */
function asked(r: SpawnRequest): StoredSafety {
  return { ...Safety.parse(r.safety ?? {}), ...(r.maxTurns ? { maxTurns: r.maxTurns } : {}), approvalTimeoutMs: r.approvalTimeoutMs };
}

/** A limit up to `max`: refused above it, except the hub default, which is lowered to fit. */
function capped(actor: Principal, field: string, value: number, fallback: number, max: number, whose: string): number {
  if (value <= max) return value;
  if (value === fallback) return max;
  throw beyond(actor, field, "within_own_limit", `${value} is more than ${whose} (${max})`, value);
}

async function forMember(sql: Sql, actor: Principal, r: SpawnRequest, safety: StoredSafety, defaults: SpawnDefaults): Promise<Granted> {
  const t = await teamSettings(sql, r.team);
  if (PRESET_RANK[r.preset] > PRESET_RANK[t.maxPreset]) {
    const why = `'${r.preset}' is wider than team '${r.team}' lets members spawn (maxPreset '${t.maxPreset}'; ${ORDER})`;
    throw beyond(actor, "preset", "max_preset", why, r.preset);
  }
  if (!safety.enabled) throw beyond(actor, "safety.enabled", "safety_on", "only the operator or a lead may switch the safety net off", false);
  if (r.allowedTools.length && t.maxPreset !== "full") {
    const why = `allowed-tool rules widen a preset; team '${r.team}' lets members spawn up to '${t.maxPreset}' only`;
    throw beyond(actor, "allowedTools", "max_preset", why, r.allowedTools);
  }
  const limit = (field: string, value: number, max: number, setting: string) => {
    if (value > max) throw beyond(actor, field, "team_limit", `${value} is more than team '${r.team}' lets members give (${setting} ${max})`, value);
  };
  limit("safety.maxCostUsd", safety.maxCostUsd, t.maxCostUsd, "maxCostUsd");
  if (r.maxBudgetUsd !== undefined) limit("maxBudgetUsd", r.maxBudgetUsd, t.maxCostUsd, "maxCostUsd");
  limit("safety.maxTurns", safety.maxTurns, t.maxTurns, "maxTurns");
  limit("safety.timeoutMs", safety.timeoutMs, t.maxTimeoutMs, "maxTimeoutMs");
  const root = t.rootDir ?? defaults.workDir;
  return { workDir: within(actor, r.workDir ?? root, root, `team '${r.team}''s root`), safety, maxBudgetUsd: r.maxBudgetUsd ?? null };
}

function forSession(actor: Principal, own: SessionRow, r: SpawnRequest, safety: StoredSafety): Granted {
  if (PRESET_RANK[r.preset] > PRESET_RANK[Preset.parse(own.preset)]) {
    throw beyond(actor, "preset", "own_preset", `'${r.preset}' is wider than your own preset '${own.preset}' (${ORDER})`, r.preset);
  }
  if (!safety.enabled) throw beyond(actor, "safety.enabled", "safety_on", "a session may not spawn one without the safety net", false);
  const ownTools = stringsOf(own.allowedTools);
  if (own.preset !== "full") {
    const i = r.allowedTools.findIndex((rule) => !ownTools.includes(rule));
    if (i >= 0) throw beyond(actor, `allowedTools.${i}`, "own_tools", `'${r.allowedTools[i]}' is not among your own allowed-tool rules`, r.allowedTools[i]);
  }
  const mine = safetyOf(own);
  const caps = [mine.enabled ? mine.maxCostUsd : Infinity, own.maxBudgetUsd ?? Infinity];
  const left = Math.min(...caps) - own.costUsd;
  if (left <= 0) {
    throw beyond(actor, "safety.maxCostUsd", "own_budget", `you have no budget left to give (spent $${own.costUsd.toFixed(2)} of $${Math.min(...caps)})`);
  }
  const budget = `your remaining budget ($${left.toFixed(2)})`;
  const granted: StoredSafety = {
    ...safety,
    maxCostUsd: capped(actor, "safety.maxCostUsd", safety.maxCostUsd, HUB_DEFAULTS.maxCostUsd, left, budget),
    maxTurns: mine.enabled ? capped(actor, "safety.maxTurns", safety.maxTurns, HUB_DEFAULTS.maxTurns, mine.maxTurns, "your own maxTurns") : safety.maxTurns,
    timeoutMs: mine.enabled
      ? capped(actor, "safety.timeoutMs", safety.timeoutMs, HUB_DEFAULTS.timeoutMs, mine.timeoutMs, "your own timeoutMs")
      : safety.timeoutMs,
    protectedPaths: [...new Set([...mine.protectedPaths, ...safety.protectedPaths])],
  };
  if (r.maxBudgetUsd !== undefined && r.maxBudgetUsd > left) {
    throw beyond(actor, "maxBudgetUsd", "within_own_limit", `${r.maxBudgetUsd} is more than ${budget}`, r.maxBudgetUsd);
  }
  return { workDir: within(actor, r.workDir ?? own.workDir, own.workDir, "your own work dir"), safety: granted, maxBudgetUsd: r.maxBudgetUsd ?? null };
}

/** A session acts as its name: one named after a principal that holds a token of its own would act as that principal. */
async function notAnotherPrincipal(sql: Sql, actor: Principal, name: string): Promise<void> {
  if (await hasLiveToken(sql, name)) {
    throw beyond(actor, "name", "not_a_principal", `'${name}' is a principal with a token of its own; a session with that name would act as it`, name);
  }
}

export async function grantSpawn(sql: Sql, actor: Principal, r: SpawnRequest, defaults: SpawnDefaults): Promise<Granted> {
  const safety = asked(r);
  if (defaults.sandbox === "none") {
    const why = "sessions are not sandboxed on this hub (bubblewrap cannot run here)";
    if (r.preset === "full") throw beyond(actor, "preset", "sandbox", `'full' is refused: ${why}`, r.preset);
    if (!safety.enabled) throw beyond(actor, "safety.enabled", "sandbox", `switching the safety net off is refused: ${why}`, false);
  }
  if (!actsForAnyone(actor)) await notAnotherPrincipal(sql, actor, r.name);
  if (actor.sessionId) {
    const own = await findSession(sql, actor.sessionId);
    if (!own) throw beyond(actor, "session", "exists", `session '${actor.sessionId}' no longer exists, so it has no authority to spawn`);
    return forSession(actor, own, r, safety);
  }
  if (actsForAnyone(actor) || (await isLead(sql, actor.name, r.team))) {
    return { workDir: r.workDir ?? defaults.workDir, safety, maxBudgetUsd: r.maxBudgetUsd ?? null };
  }
  return forMember(sql, actor, r, safety, defaults);
}
