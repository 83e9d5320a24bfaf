/**
 * Chat safety (docs/domain.md#chat-limits), checked inside the sending transaction, before anything is delivered:
 *
 * - rate limit: a sender may send `chatRateLimitPerMinute` messages per rolling minute in a team;
 *   a broadcast counts once, however many inboxes it reaches.
 * - loop guard: when a pair of members already exchanged `chatLoopMaxExchanges` direct messages
 *   (dm, ask, reply; either direction) within `chatLoopWindowSeconds`, the next one is refused
 *   and the pair is blocked for `chatLoopWindowSeconds` (a ChatBlock row that outlives restarts).
 *
 * The operator and the hub's own machinery (pipelines, the scheduler) are exempt: the limits
 * exist to stop agents from flooding each other, not to stop a person or a configured pipeline
 * (pipelines have rate limits of their own). A pair with the operator in it is exempt from the
 * loop guard for the same reason: a person chatting with an agent is not a runaway loop.
 */
import type { WriteTx } from "../../db/database.ts";
import { raw, sql } from "../../db/sql.ts";
import type { ChatBlockRow, MessageRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";
import { actsForAnyone, OPERATOR, type Principal } from "../principal.ts";
import { teamSettings } from "../teams/settings.ts";

const MINUTE_MS = 60_000;

/** Kinds that are one member talking to another; notices from the hub never count. */
const DIRECT_KINDS = raw(`('dm','ask','reply')`);

/**
 * A tripped loop guard: the block must be committed although the message is refused, so it
 * travels out of the transaction as a value (see `sendTransaction`) rather than rolling it back.
 */
export class LoopTrip {
  constructor(readonly error: DomainError) {}
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Refuses the send (throws) when it would break a limit; `peer` is the other member of a direct message. */
export async function enforceChatLimits(tx: WriteTx, actor: Principal, team: string, peer: string | null): Promise<void> {
  if (actsForAnyone(actor)) return;
  const settings = await teamSettings(tx, team);
  await rateLimit(tx, actor.name, team, settings.chatRateLimitPerMinute);
  if (peer !== null && peer !== OPERATOR.name) await loopGuard(tx, actor.name, peer, team, settings.chatLoopMaxExchanges, settings.chatLoopWindowSeconds);
}

async function rateLimit(tx: WriteTx, sender: string, team: string, perMinute: number): Promise<void> {
  const since = new Date(tx.now.getTime() - MINUTE_MS);
  // One row per recipient: a broadcast's rows share its transaction's time and text, so they are grouped into one send.
  const sends = await tx.all<Pick<MessageRow, "createdAt">>(
    sql`SELECT "createdAt" FROM "Message" WHERE "teamId" = ${team} AND "sender" = ${sender} AND "createdAt" > ${since} AND "kind" IN ${DIRECT_KINDS}
     UNION ALL
     SELECT "createdAt" FROM "Message" WHERE "teamId" = ${team} AND "sender" = ${sender} AND "createdAt" > ${since} AND "kind" = 'broadcast' GROUP BY "createdAt", "text"
     ORDER BY "createdAt"`,
  );
  if (sends.length < perMinute) return;
  // Sending is possible again once enough of the counted sends are older than a minute.
  const retryAt = new Date(sends[sends.length - perMinute].createdAt.getTime() + MINUTE_MS);
  throw new DomainError(
    "rate_limited",
    `rate limit: '${sender}' sent ${sends.length} message${sends.length === 1 ? "" : "s"} in the last minute, and the limit is ${perMinute} per minute (team setting chatRateLimitPerMinute); ` +
      `retry after ${retryAt.toISOString()} (in ${seconds(retryAt.getTime() - tx.now.getTime())} s)`,
    { rule: "rate_limit", sender, limit: perMinute, sent: sends.length, retryAt, retryAfterSeconds: seconds(retryAt.getTime() - tx.now.getTime()) },
  );
}

async function loopGuard(tx: WriteTx, sender: string, peer: string, team: string, maxExchanges: number, windowSeconds: number): Promise<void> {
  const [a, b] = [sender, peer].sort();
  const block = await tx.get<Pick<ChatBlockRow, "until">>(sql`SELECT "until" FROM "ChatBlock" WHERE "teamId" = ${team} AND "a" = ${a} AND "b" = ${b}`);
  if (block && block.until > tx.now) throw loopError(a, b, block.until, tx.now, `are blocked`, maxExchanges, windowSeconds);
  // Exchanges from before an expired block do not count again.
  const windowStart = new Date(tx.now.getTime() - windowSeconds * 1000);
  const since = block && block.until > windowStart ? block.until : windowStart;
  const row = await tx.get<{ n: number }>(
    sql`SELECT COUNT(*) AS "n" FROM "Message" WHERE "teamId" = ${team} AND "createdAt" > ${since} AND "kind" IN ${DIRECT_KINDS}
     AND (("sender" = ${a} AND "recipient" = ${b}) OR ("sender" = ${b} AND "recipient" = ${a}))`,
  );
  if (row!.n < maxExchanges) return;
  const until = new Date(tx.now.getTime() + windowSeconds * 1000);
  await tx.run(
    sql`INSERT INTO "ChatBlock" ("teamId","a","b","until") VALUES (${team},${a},${b},${until}) ON CONFLICT ("teamId","a","b") DO UPDATE SET "until" = excluded."until"`,
  );
  await tx.emit({ teamId: team, type: "chat.pair_blocked", subject: `pair:${a}|${b}`, payload: { members: [a, b], exchanges: row!.n, windowSeconds, until } });
  throw new LoopTrip(
    loopError(a, b, until, tx.now, `exchanged ${row!.n} messages within ${windowSeconds} s, so the pair is now blocked`, maxExchanges, windowSeconds),
  );
}

function loopError(a: string, b: string, until: Date, now: Date, what: string, maxExchanges: number, windowSeconds: number): DomainError {
  return new DomainError(
    "rate_limited",
    `loop guard: '${a}' and '${b}' ${what} until ${until.toISOString()} (in ${seconds(until.getTime() - now.getTime())} s); ` +
      `at most ${maxExchanges} direct messages per ${windowSeconds} s between two members (team settings chatLoopMaxExchanges, chatLoopWindowSeconds). ` +
      `Coordinate through an artifact or a contract instead, or ask the operator.`,
    { rule: "loop_guard", members: [a, b], until, retryAfterSeconds: seconds(until.getTime() - now.getTime()) },
  );
}
