/**
 * Usage limits as a state of the account (docs/limits.md): when the API says a subscription's window is used up, the
 * turn that hit it goes back to the queue, and no session on the same credentials starts a turn until the window
 * resets (or a person releases it early). At the release the held turns go again, in order. A window filling up
 * (`allowed_warning`) is recorded for the overview. Every change is one transaction with its event.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { AccountLimitRow, ContractRow, SessionRow } from "../../db/rows.ts";
import { DomainError, notFound } from "../../errors.ts";
import { AccountHold, type ReleaseAccountInput } from "../../../lib/api/limits.ts";
import { authorize } from "../auth/capabilities.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { setProblem } from "../sessions/problems.ts";
import { moveTo, sessionByPk } from "../sessions/sessions.repo.ts";
import { requestResume } from "../sessions/control.service.ts";

/** What the CLI said: `rate_limit_event.rate_limit_info`, and the turn's closing sentence when it was refused. */
export type LimitInfo = { window: string | null; resetsAt: Date | null; utilization?: number | null; message?: string | null };

/** Sentences start with this, so a later turn (or the release) knows the problem is the hold's. */
export const LIMITED_PREFIX = "limited until";

const WINDOW_WORDS: Record<string, string> = {
  five_hour: "five-hour window",
  seven_day: "weekly window",
  seven_day_opus: "weekly Opus window",
  seven_day_sonnet: "weekly Sonnet window",
  seven_day_overage_included: "weekly window",
  overage: "extra usage",
};

const windowWords = (w: string | null) => (w ? (WINDOW_WORDS[w] ?? w.replace(/_/g, " ")) : "usage limit");

/** "limited until 18:08 UTC (five-hour window)": the problem of every held session. */
export function limitedSentence(l: Pick<AccountLimitRow, "resetsAt" | "window">): string {
  const until = l.resetsAt ? `${l.resetsAt.toISOString().slice(11, 16)} UTC` : "a person releases it";
  return `${LIMITED_PREFIX} ${until} (${windowWords(l.window)})`;
}

export async function accountLimit(s: Sql, account: string | null): Promise<AccountLimitRow | undefined> {
  if (!account) return undefined;
  return s.get<AccountLimitRow>(sql`SELECT * FROM "AccountLimit" WHERE "account" = ${account}`);
}

/** The account's hold, if it is limited now: a turn of any of its sessions must not start. */
export async function activeHold(s: Sql, account: string | null): Promise<AccountLimitRow | null> {
  const l = await accountLimit(s, account);
  return l?.status === "limited" ? l : null;
}

/**
 * Inside startNextTurn: the session's account is held, so its next turn waits (queued, in its place) and the session
 * says why; null when it may go.
 */
export async function holdIfLimited(tx: WriteTx, s: SessionRow): Promise<AccountLimitRow | null> {
  const hold = await activeHold(tx, s.account);
  if (hold) await setProblem(tx, s, { kind: "limited", text: limitedSentence(hold) });
  else if (s.problem?.startsWith(LIMITED_PREFIX)) await setProblem(tx, s, null);
  return hold;
}

/**
 * The turn ran into a used-up window: it goes back to the queue (the first to run at the release), the session is
 * idle and held, and the account is limited until the reset the API named.
 */
export async function limitTurn(
  deps: DomainDeps,
  pk: number,
  interactionId: number,
  who: { account: string; label: string },
  info: LimitInfo,
  actor: string,
): Promise<void> {
  await deps.db.write("account.limited", actor, async (tx) => {
    const s = await sessionByPk(tx, pk);
    if (!s) return;
    await tx.run(sql`UPDATE "Interaction" SET "status" = 'queued', "endedAt" = NULL WHERE "id" = ${interactionId} AND "status" = 'running'`);
    if (s.status === "busy") await moveTo(tx, s, "idle", `held: ${windowWords(info.window)} used up`, { lastEventAt: tx.now });
    const before = await accountLimit(tx, who.account);
    const hold = await upsertLimit(tx, who, "limited", info, before?.status === "limited" ? before.since : tx.now);
    await setProblem(tx, s, { kind: "limited", text: limitedSentence(hold) });
    await tx.emit({
      teamId: s.teamId,
      type: "session.limited",
      subject: `session:${s.name}`,
      payload: { name: s.name, account: who.account, window: info.window, resetsAt: info.resetsAt, interactionId },
    });
    if (before?.status !== "limited") {
      await tx.emit({
        teamId: null,
        type: "account.limited",
        subject: `account:${who.account}`,
        payload: { account: who.account, label: who.label, window: info.window, resetsAt: info.resetsAt, message: info.message ?? null, by: s.name },
      });
    }
  });
}

/** A window filling up: recorded for the overview, announced once per window and threshold. Never overrides a hold. */
export async function noteWarning(deps: DomainDeps, who: { account: string; label: string }, info: LimitInfo, actor: string): Promise<void> {
  await deps.db.write("account.warning", actor, async (tx) => {
    const before = await accountLimit(tx, who.account);
    if (before?.status === "limited") return;
    const same = before?.window === info.window && before?.resetsAt?.getTime() === info.resetsAt?.getTime();
    await upsertLimit(tx, who, "warning", info, same ? before!.since : tx.now);
    if (same && (before?.utilization ?? 0) >= (info.utilization ?? 0)) return;
    await tx.emit({
      teamId: null,
      type: "account.warning",
      subject: `account:${who.account}`,
      payload: { account: who.account, label: who.label, window: info.window, resetsAt: info.resetsAt, utilization: info.utilization ?? null },
    });
  });
}

async function upsertLimit(tx: WriteTx, who: { account: string; label: string }, status: AccountHold["status"], info: LimitInfo, since: Date) {
  const row = await tx.get<AccountLimitRow>(
    sql`INSERT INTO "AccountLimit" ("account","label","status","window","resetsAt","utilization","since","message","updatedAt") VALUES (${who.account},${who.label},${status},${info.window},${info.resetsAt},${info.utilization ?? null},${since},${info.message ?? null},${tx.now})
     ON CONFLICT ("account") DO UPDATE SET "label" = excluded."label", "status" = excluded."status", "window" = excluded."window",
       "resetsAt" = excluded."resetsAt", "utilization" = excluded."utilization", "since" = excluded."since", "message" = excluded."message",
       "updatedAt" = excluded."updatedAt"
     RETURNING *`,
  );
  return row!;
}

/** Sessions held on the account, in the order their turns will go (the oldest queued turn first). */
export async function heldSessions(s: Sql, account: string, team?: string): Promise<Array<Pick<SessionRow, "pk" | "name" | "teamId">>> {
  return s.all(
    sql`SELECT s."pk", s."name", s."teamId" FROM "Session" s
      JOIN (SELECT "sessionPk", MIN("id") AS "first" FROM "Interaction" WHERE "status" = 'queued' GROUP BY "sessionPk") q ON q."sessionPk" = s."pk"
      WHERE s."account" = ${account}${team ? sql` AND s."teamId" = ${team}` : EMPTY} ORDER BY q."first"`,
  );
}

export type ReleaseHow = "reset" | "early" | "cancelled";

/**
 * The hold ends: at the reset (the supervisor), or early or cancelled by a person. Contracts whose assignee was held get
 * their deadline moved by the time held; with `cancel`, the held sessions' waiting turns are cancelled. Returns the
 * sessions whose turns may go now, in order (empty when there was no hold).
 */
export async function releaseHold(tx: WriteTx, account: string, how: ReleaseHow, by: string, maxLive: number): Promise<Array<{ pk: number; name: string }>> {
  const hold = await activeHold(tx, account);
  if (!hold) return [];
  const held = await heldSessions(tx, account);
  const heldMs = Math.max(0, tx.now.getTime() - hold.since.getTime());
  // Before the hold's row goes: the contracts it kept from timing out are those of every session on the account.
  await moveDeadlines(tx, account, hold.since);
  await tx.run(sql`DELETE FROM "AccountLimit" WHERE "account" = ${account}`);
  for (const h of held) {
    const s = await sessionByPk(tx, h.pk);
    if (!s) continue;
    if (how === "cancelled") {
      const error = `cancelled by ${by} while the account was held (${windowWords(hold.window)})`;
      await tx.run(
        sql`UPDATE "Interaction" SET "status" = 'cancelled', "error" = ${error}, "endedAt" = ${tx.now} WHERE "sessionPk" = ${s.pk} AND "status" = 'queued'`,
      );
    }
    if (s.problem?.startsWith(LIMITED_PREFIX)) await setProblem(tx, s, null);
    // A hub that went down meanwhile left its held sessions interrupted: their turns are what the release is for.
    if (how !== "cancelled" && s.status === "interrupted") await resumeHeld(tx, s, hold, maxLive);
  }
  const sessions = held.map((h) => h.name);
  await tx.emit({
    teamId: null,
    type: "account.released",
    subject: `account:${account}`,
    payload: { account, label: hold.label, window: hold.window, how, by, heldMs, sessions },
  });
  return how === "cancelled" ? [] : held;
}

/**
 * Resumes a held session that came back interrupted. One that cannot be resumed (no conversation yet, its work tree
 * discarded) keeps its turns queued and says why; the others' release goes on.
 */
async function resumeHeld(tx: WriteTx, s: SessionRow, hold: AccountLimitRow, maxLive: number): Promise<void> {
  try {
    await requestResume(tx, s, `its ${windowWords(hold.window)} reset`, maxLive);
  } catch (e) {
    // requestResume checks before it writes: a refusal leaves nothing half done.
    if (!(e instanceof DomainError)) throw e;
    await setProblem(tx, s, { kind: "failed", text: `not resumed at the ${windowWords(hold.window)} reset: ${e.message}` });
  }
}

/**
 * The contracts of the account's sessions (every session on it was held, as failOverdue's assigneeHeld says) did not
 * run out of time while held: each deadline moves by the time held since its clock started — the hold's start, or the
 * contract's own when it was made or reopened during the hold. A contract already overdue when the hold began is left
 * to fail.
 */
async function moveDeadlines(tx: WriteTx, account: string, since: Date): Promise<void> {
  const contracts = await tx.all<Pick<ContractRow, "teamId" | "id" | "assignee" | "timeoutMs"> & { deadlineAt: NonNullable<ContractRow["deadlineAt"]> }>(
    sql`SELECT c."teamId", c."id", c."assignee", c."deadlineAt", c."timeoutMs" FROM "Contract" c
      JOIN "Member" m ON m."teamId" = c."teamId" AND m."name" = c."assignee"
      JOIN "Session" s ON s."name" = m."sessionId"
      WHERE s."account" = ${account} AND c."status" IN ('pending','ready','in_progress') AND c."deadlineAt" IS NOT NULL AND c."deadlineAt" > ${since}
      ORDER BY c."teamId", c."id"`,
  );
  for (const c of contracts) {
    const started = c.timeoutMs === null ? since.getTime() : Math.max(since.getTime(), c.deadlineAt.getTime() - c.timeoutMs);
    const heldMs = tx.now.getTime() - started;
    if (heldMs <= 0) continue;
    const to = new Date(c.deadlineAt.getTime() + heldMs);
    await tx.run(sql`UPDATE "Contract" SET "deadlineAt" = ${to}, "updatedAt" = ${tx.now} WHERE "teamId" = ${c.teamId} AND "id" = ${c.id}`);
    await tx.emit({
      teamId: c.teamId,
      type: "contract.deadline_moved",
      subject: `contract:${c.id}`,
      payload: { id: c.id, from: c.deadlineAt, to, heldMs, reason: `its assignee ${c.assignee} was held by a usage limit` },
    });
  }
}

/** Whether the contract's assignee runs in a session whose account is held now: its deadline does not pass meanwhile. */
export async function assigneeHeld(s: Sql, team: string, assignee: string): Promise<boolean> {
  const row = await s.get(
    sql`SELECT 1 FROM "Member" m JOIN "Session" s ON s."name" = m."sessionId" JOIN "AccountLimit" a ON a."account" = s."account"
      WHERE m."teamId" = ${team} AND m."name" = ${assignee} AND a."status" = 'limited' LIMIT 1`,
  );
  return row !== undefined;
}

/** A person releases the account early, or cancels the turns it holds (the operator and the held teams' leads). */
export async function releaseAccount(deps: DomainDeps, actor: Principal, input: ReleaseAccountInput, maxLive: number): Promise<{ released: string[] }> {
  return deps.db.write("account.release", actor.name, async (tx) => {
    const hold = await activeHold(tx, input.account);
    if (!hold) {
      if (await accountLimit(tx, input.account)) throw new DomainError("illegal_transition", `account '${input.account}' is not held`, { field: "account" });
      throw notFound("account hold", input.account, "account");
    }
    const teams = [...new Set((await heldSessions(tx, input.account)).map((h) => h.teamId))];
    if (teams.length === 0) await authorize(tx, actor, "account.release", { team: null, label: `'${input.account}'` });
    for (const team of teams) await authorize(tx, actor, "account.release", { team, label: `'${input.account}'` });
    return { released: (await releaseHold(tx, input.account, input.cancel ? "cancelled" : "early", actor.name, maxLive)).map((h) => h.name) };
  });
}

/** Holds and warnings of the accounts a team's sessions run on, for needs-attention and the overview. */
export async function accountHolds(s: Sql, team: string): Promise<AccountHold[]> {
  const rows = await s.all<AccountLimitRow>(
    sql`SELECT a.* FROM "AccountLimit" a WHERE EXISTS (SELECT 1 FROM "Session" s WHERE s."account" = a."account" AND s."teamId" = ${team}) ORDER BY a."since"`,
  );
  const out: AccountHold[] = [];
  for (const r of rows) {
    const held = r.status === "limited" ? (await heldSessions(s, r.account, team)).map((h) => h.name) : [];
    out.push({
      account: r.account,
      label: r.label,
      status: AccountHold.shape.status.parse(r.status),
      window: r.window,
      resetsAt: r.resetsAt,
      utilization: r.utilization,
      since: r.since,
      message: r.message,
      held,
    });
  }
  return out;
}

/** Holds whose reset has come (the supervisor's timer, and its start-up after a restart). */
export async function dueHolds(s: Sql, now: Date, marginMs: number): Promise<AccountLimitRow[]> {
  const due = new Date(now.getTime() - marginMs);
  return s.all<AccountLimitRow>(sql`SELECT * FROM "AccountLimit" WHERE "status" = 'limited' AND "resetsAt" IS NOT NULL AND "resetsAt" <= ${due}`);
}

export async function releaseDue(deps: DomainDeps, account: string, actor: string, maxLive: number): Promise<Array<{ pk: number; name: string }>> {
  return deps.db.write("account.reset", actor, (tx) => releaseHold(tx, account, "reset", actor, maxLive));
}

/** The next reset the supervisor must wake up for. */
export async function nextReset(s: Sql): Promise<Date | null> {
  const row = await s.get<Pick<AccountLimitRow, "resetsAt">>(
    sql`SELECT "resetsAt" FROM "AccountLimit" WHERE "status" = 'limited' AND "resetsAt" IS NOT NULL ORDER BY "resetsAt" LIMIT 1`,
  );
  return row?.resetsAt ?? null;
}

/**
 * Rate limits for API keys (docs/limits.md#rate-limits): the API refused the turn (429, 529) and the CLI gave up; the turn
 * goes back to the queue, first in line, and the supervisor sends it again after `delayMs`.
 */
export async function retryTurn(
  deps: DomainDeps,
  pk: number,
  interactionId: number,
  retry: { attempt: number; maxAttempts: number; delayMs: number; status: number },
  actor: string,
): Promise<void> {
  await deps.db.write("session.turn_retry", actor, async (tx) => {
    const s = await sessionByPk(tx, pk);
    if (!s) return;
    await tx.run(sql`UPDATE "Interaction" SET "status" = 'queued', "endedAt" = NULL WHERE "id" = ${interactionId} AND "status" = 'running'`);
    if (s.status === "busy") await moveTo(tx, s, "idle", `the API answered ${retry.status}; sent again in ${Math.round(retry.delayMs / 1000)} s`);
    await tx.emit({ teamId: s.teamId, type: "session.turn_retry", subject: `session:${s.name}`, payload: { name: s.name, interactionId, ...retry } });
  });
}
