/**
 * The delivery log's writes (docs/notifications.md#deliveries). Each is a short write of its own, never the write of
 * the change being notified, and no HTTP request runs inside one. Taking a delivery to attempt it is a claim in a
 * write that checks again that it is due, so when hubs share the database exactly one attempts it; a claim lasts a
 * lease, after which another hub may take over a delivery whose hub went away.
 */
import { randomUUID } from "node:crypto";
import type { Database, WriteTx } from "../../db/database.ts";
import { inList, raw, sql, type Query } from "../../db/sql.ts";
import type { WebhookDeliveryRow, WebhookRow } from "../../db/rows.ts";
import { backoffMs, type WebhookConfig } from "./config.ts";
import type { Outcome, Request } from "./attempt.ts";
import { headersOf } from "./webhooks.repo.ts";
import type { Rendered } from "./render.ts";

/** Finished deliveries kept per webhook: the newest ones, enough to see what happened; older ones are removed. */
export const KEEP_FINISHED = 500;

/** Who holds a claim: the hub's id (stable across its restarts), or a process that runs no hub. */
export const claimantOf = (db: Database) => db.hub ?? `process:${process.pid}:${randomUUID().slice(0, 8)}`;

/** How long a claim holds: the attempt's own limit, twice, and room for the write that records it. */
export const leaseMs = (config: Pick<WebhookConfig, "timeoutMs">) => 2 * config.timeoutMs + 30_000;

export type NewDelivery = { webhook: Pick<WebhookRow, "pk" | "teamId">; kind: "event" | "test"; eventId: number | null; eventType: string; rendered: Rendered };

/** Adds a delivery unless the (webhook, event) pair has one: a hub catching up after another enqueued it adds nothing. */
export async function insertDelivery(
  tx: WriteTx,
  d: NewDelivery,
  state: { status: "pending" | "sending"; maxAttempts: number; claimedBy?: string; claimedUntil?: Date },
): Promise<number | null> {
  const sending = state.status === "sending";
  const row = await tx.get<Pick<WebhookDeliveryRow, "id">>(
    sql`INSERT INTO "WebhookDelivery" ("webhookPk","teamId","kind","eventId","eventType","body","contentType","headers","status","attempts","maxAttempts","nextAttemptAt","claimedBy","claimedUntil","createdAt","updatedAt")
     VALUES (${d.webhook.pk},${d.webhook.teamId},${d.kind},${d.eventId},${d.eventType},${d.rendered.body},${d.rendered.contentType},${JSON.stringify(d.rendered.headers)},${state.status},${sending ? 1 : 0},${state.maxAttempts},${sending ? null : tx.now},${state.claimedBy ?? null},${state.claimedUntil ?? null},${tx.now},${tx.now}) ON CONFLICT ("webhookPk","eventId") DO NOTHING RETURNING "id"`,
  );
  return row?.id ?? null;
}

const KEPT_OFFSET = raw(String(KEEP_FINISHED - 1));

/** Keeps the newest KEEP_FINISHED delivered or failed deliveries of a webhook; waiting ones always stay. */
export async function prune(tx: WriteTx, webhookPk: number): Promise<void> {
  await tx.run(
    sql`DELETE FROM "WebhookDelivery" WHERE "webhookPk" = ${webhookPk} AND "status" IN ('delivered','failed') AND "id" < (
       SELECT "id" FROM (SELECT "id" FROM "WebhookDelivery" WHERE "webhookPk" = ${webhookPk} AND "status" IN ('delivered','failed') ORDER BY "id" DESC LIMIT 1 OFFSET ${KEPT_OFFSET}) k)`,
  );
}

/** A claimed delivery with what its request needs. */
export type Claimed = WebhookDeliveryRow & Pick<WebhookRow, "url" | "secret"> & { webhook: WebhookRow["id"] };

export const requestOf = (c: Claimed): Request => ({
  url: c.url,
  secret: c.secret,
  webhook: c.webhook,
  deliveryId: c.id,
  eventType: c.eventType,
  body: c.body,
  contentType: c.contentType,
  headers: headersOf(c),
});

const due = (now: Date): Query => sql`(("status" = 'pending' AND "nextAttemptAt" <= ${now}) OR ("status" = 'sending' AND "claimedUntil" < ${now}))`;

/**
 * Takes the given deliveries that are still due (waiting past their time, or held by a claim that lapsed) for
 * `claimant`, counting the attempt; a lapsed claim with no attempt left fails instead. Returns what it took.
 */
export async function claim(tx: WriteTx, ids: number[], claimant: string, lease: number): Promise<Claimed[]> {
  if (!ids.length) return [];
  const listed = inList(ids);
  await tx.run(
    sql`UPDATE "WebhookDelivery" SET "status" = 'failed', "claimedBy" = NULL, "claimedUntil" = NULL, "nextAttemptAt" = NULL, "updatedAt" = ${tx.now},
       "lastError" = 'no outcome recorded: the hub attempting it stopped' WHERE "id" IN ${listed} AND "status" = 'sending' AND "claimedUntil" < ${tx.now} AND "attempts" >= "maxAttempts"`,
  );
  const until = new Date(tx.now.getTime() + lease);
  const taken = await tx.all<Pick<WebhookDeliveryRow, "id">>(
    sql`UPDATE "WebhookDelivery" SET "status" = 'sending', "attempts" = "attempts" + 1, "claimedBy" = ${claimant}, "claimedUntil" = ${until}, "nextAttemptAt" = NULL, "updatedAt" = ${tx.now}
     WHERE "id" IN ${listed} AND ${due(tx.now)} AND "attempts" < "maxAttempts" RETURNING "id"`,
  );
  if (!taken.length) return [];
  return tx.all<Claimed>(
    sql`SELECT d.*, w."url", w."secret", w."id" AS "webhook" FROM "WebhookDelivery" d JOIN "Webhook" w ON w."pk" = d."webhookPk" WHERE d."id" IN ${inList(taken.map((t) => t.id))} ORDER BY d."id"`,
  );
}

/**
 * Records how an attempt went, if the claim is still the claimant's (a claim that lapsed and was taken over records
 * nothing): delivered, waiting for the next attempt after the backoff, or failed. Returns the new status, or null.
 */
export async function record(
  tx: WriteTx,
  d: Pick<WebhookDeliveryRow, "id" | "attempts" | "maxAttempts">,
  outcome: Outcome,
  claimant: string,
  config: Pick<WebhookConfig, "retryBaseMs">,
): Promise<"delivered" | "pending" | "failed" | null> {
  const status = outcome.delivered ? "delivered" : outcome.retry && d.attempts < d.maxAttempts ? "pending" : "failed";
  const next = status === "pending" ? new Date(tx.now.getTime() + backoffMs(config, d.attempts, outcome.retryAfterMs)) : null;
  const { changes } = await tx.run(
    sql`UPDATE "WebhookDelivery" SET "status" = ${status}, "responseCode" = ${outcome.responseCode}, "lastError" = ${outcome.error}, "durationMs" = ${outcome.durationMs}, "nextAttemptAt" = ${next}, "claimedBy" = NULL, "claimedUntil" = NULL,
       "updatedAt" = ${tx.now}, "deliveredAt" = ${outcome.delivered ? tx.now : null} WHERE "id" = ${d.id} AND "status" = 'sending' AND "claimedBy" = ${claimant} AND "attempts" = ${d.attempts}`,
  );
  return changes === 1 ? status : null;
}

/** At a hub's start: its claims from before (a restart mid-attempt) lapse now, so they are attempted again at once. */
export async function releaseClaims(tx: WriteTx, claimant: string): Promise<void> {
  await tx.run(sql`UPDATE "WebhookDelivery" SET "claimedUntil" = ${new Date(tx.now.getTime() - 1)} WHERE "status" = 'sending' AND "claimedBy" = ${claimant}`);
}
