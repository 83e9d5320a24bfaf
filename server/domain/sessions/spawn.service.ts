/**
 * Creating sessions: spawn, batch, fork, team_spawn. Each writes the session (and its first
 * message) in one transaction; the supervisor launches the process when `session.created`
 * commits, in whichever process runs the hub.
 */
import { randomUUID } from "node:crypto";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, stringsOf, type SessionRow } from "../../db/rows.ts";
import { DomainError, conflict, invalidField } from "../../errors.ts";
import {
  Preset,
  SessionKind,
  type BatchSpawnInput,
  type ForkInput,
  type MemberSessionView,
  type SessionView,
  type SpawnInput,
  type TeamSpawnInput,
} from "../../../lib/api/sessions.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import { workerGuide } from "../../../lib/guides.ts";
import { knowledgeMarkdown, startupKnowledge, type Knowledge } from "../knowledge/context.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { recordSpawnBatch } from "../gate/spawn-batches.ts";
import { rosterOf, upsertMemberInTx } from "../roster/roster.service.ts";
import { teamSettings } from "../teams/settings.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { announceQueued, placeFor } from "./admission.ts";
import { queueMessage } from "./interactions.ts";
import { findSession, requireSession, safetyOf, teamOf, viewOf } from "./sessions.repo.ts";
import { checkWorkDir, grantSpawn, type SpawnDefaults } from "./spawn-authority.ts";
import { chooseRuntime, refuseFork } from "../runtimes/runtime-rules.ts";
import { authorizeSession } from "./ownership.ts";
import { recordWorktree, withForkWorktree, withWorktrees, type IsolationRequest, type MadeWorktree } from "../worktrees/isolate.ts";

// Principals the hub itself uses; a session named like one would be confused with it.
const RESERVED = new Set(["operator", "supervisor", "scheduler", "system"]);

/** `worktree`: the work tree git made for it before this transaction (docs/worktrees.md#isolation); absent: it shares its work dir. */
export type NewSession = SpawnInput & { kind: SessionKind; parent?: string | null; forkFrom?: string | null; source: string; worktree?: MadeWorktree | null };

/** Writes the session once the spawner's authority allows it (spawn-authority.ts); `spawnedBy` records who asked. */
export async function insertSession(tx: WriteTx, actor: Principal, s: NewSession, defaults: SpawnDefaults): Promise<SessionRow> {
  if (RESERVED.has(s.name.toLowerCase())) throw conflict(`'${s.name}' is reserved for the hub's own principals`, { field: "name" });
  if (await findSession(tx, s.name)) throw conflict(`session '${s.name}' already exists`, { field: "name" });
  const { runtime, model } = chooseRuntime(defaults.runtimes, s);
  checkWorkDir(s.workDir ?? defaults.workDir);
  const granted = await grantSpawn(tx, actor, s, defaults);
  const { safety, maxBudgetUsd } = granted;
  // The work tree was planned from what the spawner's authority granted; it must still grant the same.
  if (s.worktree && s.worktree.granted !== granted.workDir)
    throw conflict(`the work dir granted changed while the work tree was made; try again`, { field: "workDir" });
  const workDir = s.worktree ? s.worktree.workDir : granted.workDir;
  await ensureTeam(tx, s.team);
  const status = await placeFor(tx, defaults.maxLive);
  const row = await tx.get<SessionRow>(
    sql`INSERT INTO "Session" ("name","teamId","kind","status","queuedAt","claudeSessionId","runtime","model","workDir","preset","allowedTools","systemPrompt","agent","maxBudgetUsd","safety",
       "principal","parent","spawnedBy","hubId","createdAt","updatedAt")
     VALUES (${s.name},${s.team},${s.kind},${status},${status === "queued" ? tx.now : null},${randomUUID()},${runtime},${model},${workDir},${s.preset},${JSON.stringify(s.allowedTools)},${s.systemPrompt ?? null},${s.agent ?? null},${maxBudgetUsd},${JSON.stringify(safety)},${s.name},${s.parent ?? null},${actor.name},${tx.hub},${tx.now},${tx.now}) RETURNING *`,
  );
  if (!row) throw new Error("INSERT … RETURNING gave no row");
  await tx.emit({
    teamId: s.team,
    type: "session.created",
    subject: `session:${s.name}`,
    payload: {
      name: s.name,
      kind: s.kind,
      team: s.team,
      preset: s.preset,
      runtime,
      model,
      workDir,
      parent: s.parent ?? null,
      forkFrom: s.forkFrom ?? null,
      by: actor.name,
      spawnedBy: actor.name,
    },
  });
  if (s.worktree) await recordWorktree(tx, { ...row, teamId: s.team }, s.worktree);
  if (status === "queued") await announceQueued(tx, row, defaults.maxLive);
  if (s.prompt) await queueMessage(tx, row, s.prompt, s.source);
  return row;
}

const isolationOf = (input: SpawnInput, kind: SessionKind, fieldPrefix?: string): IsolationRequest => ({ ...input, kind, fieldPrefix });

export async function spawnSession(deps: DomainDeps, actor: Principal, input: SpawnInput, defaults: SpawnDefaults): Promise<SessionView> {
  return withWorktrees(deps, actor, [isolationOf(input, "session")], defaults, ([worktree]) =>
    deps.db.write("session.spawn", actor.name, async (tx) =>
      viewOf(tx, await insertSession(tx, actor, { ...input, kind: "session", source: actor.name, worktree }, defaults)),
    ),
  );
}

/** All or nothing: a batch with one bad entry spawns none, and the error names the entry. */
export async function batchSpawn(deps: DomainDeps, actor: Principal, input: BatchSpawnInput, defaults: SpawnDefaults): Promise<SessionView[]> {
  const names = input.sessions.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw invalidField(`sessions.${names.lastIndexOf(dup)}.name`, "unique", `'${dup}' appears more than once in the batch`, dup);
  const requests = input.sessions.map((s, i) => isolationOf(s, "session", `sessions.${i}.`));
  return withWorktrees(deps, actor, requests, defaults, (made) =>
    deps.db.write("session.batch", actor.name, async (tx) => {
      const out: SessionView[] = [];
      for (const [i, s] of input.sessions.entries()) {
        try {
          out.push(await viewOf(tx, await insertSession(tx, actor, { ...s, kind: "session", source: actor.name, worktree: made[i] }, defaults)));
        } catch (e) {
          if (DomainError.is(e)) throw new DomainError(e.code, `sessions.${i}: ${e.message}`, { ...e.details, index: i });
          throw e;
        }
      }
      return out;
    }),
  );
}

/** A new session that starts from the parent's conversation (`--resume <parent> --fork-session`). */
export async function forkSession(deps: DomainDeps, actor: Principal, input: ForkInput, defaults: SpawnDefaults): Promise<SessionView> {
  // Checked before git runs, so a refused fork makes no work tree; checked again in the transaction, which decides.
  const before = await deps.db.read(async (s) => {
    const parent = await requireSession(s, input.name);
    await authorizeSession(s, actor, "session.fork", parent);
    refuseFork(defaults.runtimes, parent);
    return parent;
  });
  return withForkWorktree(deps, before, { team: teamOf(before), name: input.newName }, defaults, (worktree) =>
    deps.db.write("session.fork", actor.name, async (tx) => {
      const parent = await requireSession(tx, input.name);
      await authorizeSession(tx, actor, "session.fork", parent);
      if (parent.interactions === 0) {
        throw new DomainError("precondition_failed", `session '${parent.name}' has no finished turn yet, so there is no conversation to fork`, {
          field: "name",
        });
      }
      const row = await insertSession(
        tx,
        actor,
        {
          team: teamOf(parent),
          name: input.newName,
          prompt: input.prompt,
          runtime: parent.runtime,
          model: input.model ?? parent.model ?? undefined,
          workDir: parent.workDir,
          preset: Preset.parse(parent.preset),
          allowedTools: stringsOf(parent.allowedTools),
          systemPrompt: parent.systemPrompt ?? undefined,
          agent: parent.agent ?? undefined,
          maxBudgetUsd: parent.maxBudgetUsd ?? undefined,
          safety: jsonColumn(JsonObject, parent.safety),
          approvalTimeoutMs: safetyOf(parent).approvalTimeoutMs,
          kind: parent.kind === "member" ? "session" : SessionKind.parse(parent.kind),
          parent: parent.name,
          forkFrom: parent.claudeSessionId,
          source: actor.name,
          worktree: worktree && { ...worktree, granted: parent.workDir },
        },
        defaults,
      );
      return viewOf(tx, row);
    }),
  );
}

/** The worker guide, the roster and what the team knows so far (docs/knowledge.md#context-loading). */
function memberPrompt(input: TeamSpawnInput, roster: Array<{ name: string; role: string; status: string }>, knowledge: Knowledge): string {
  const others = roster.filter((m) => m.name !== input.name);
  const lines = others.length ? others.map((m) => `- ${m.name}${m.role ? ` (${m.role})` : ""}: ${m.status}`).join("\n") : "- (nobody else yet)";
  return [
    workerGuide({ team: input.team, member: input.name, role: input.role || undefined }),
    `## Your team right now\n${lines}`,
    knowledgeMarkdown(knowledge, input.name),
    "When the hub wakes you with a message or a ready contract, act on it, then end your turn; you do not need to poll.",
    input.systemPrompt ?? "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * A session that is a team member (docs/domain.md#team-members): joins the roster, gets the worker guide and its own
 * hub identity. When the team enforces the phase gate, a new spawn batch needs a passing gate.
 */
export async function teamSpawn(deps: DomainDeps, actor: Principal, input: TeamSpawnInput, defaults: SpawnDefaults): Promise<MemberSessionView> {
  return withWorktrees(deps, actor, [{ ...input, kind: "member" }], defaults, ([worktree]) =>
    deps.db.write("session.team_spawn", actor.name, async (tx) => {
      await ensureTeam(tx, input.team);
      const settings = await teamSettings(tx, input.team);
      const batch = settings.gateEnforcement === "on" ? (await recordSpawnBatch(tx, input.team, tx.now)).batch : 0;
      await upsertMemberInTx(tx, { team: input.team, name: input.name, role: input.role, status: "idle", sessionId: input.name });
      const systemPrompt = memberPrompt(input, await rosterOf(tx, input.team), await startupKnowledge(tx, input.team, input.name));
      const row = await insertSession(tx, actor, { ...input, systemPrompt, kind: "member", source: actor.name, worktree }, defaults);
      return { ...(await viewOf(tx, row)), batch };
    }),
  );
}
