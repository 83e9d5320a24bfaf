/**
 * Webhook and delivery rows, and the views every door answers with. The secret column is read only where a request is
 * signed (./attempt.ts); views never carry it.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, stringsOf, type WebhookDeliveryRow, type WebhookRow } from "../../db/rows.ts";
import { notFound } from "../../errors.ts";
import { DeliveryStatus, WebhookFormat, parseSelector, type DeliveryView, type ParsedSelector, type WebhookView } from "../../../lib/api/webhooks.ts";

const Headers = z.record(z.string(), z.string());
const Kind = z.enum(["event", "test"]);

export const eventsOf = (row: Pick<WebhookRow, "events">): string[] => stringsOf(row.events);
export const headersOf = (row: Pick<WebhookDeliveryRow, "headers">): Record<string, string> => jsonColumn(Headers, row.headers);

/** The selectors as the dispatcher matches them; checked when stored, so one that no longer parses (a type gone from the catalog) is skipped. */
export const selectorsOf = (row: Pick<WebhookRow, "events">): ParsedSelector[] =>
  eventsOf(row).flatMap((s) => {
    const parsed = parseSelector(s);
    return "error" in parsed ? [] : [parsed];
  });

/** Scheme, host and port: what events and logs may say about a URL whose path or query can hold a token. */
export const originOf = (url: string) => new URL(url).origin;

export async function loadWebhook(s: Sql, team: string, id: string): Promise<WebhookRow> {
  const row = await s.get<WebhookRow>(sql`SELECT * FROM "Webhook" WHERE "teamId" = ${team} AND "id" = ${id}`);
  if (!row) throw notFound("webhook", id, "id");
  return row;
}

export const toDeliveryView = (d: WebhookDeliveryRow, webhook: string): DeliveryView => ({
  id: d.id,
  webhook,
  kind: Kind.parse(d.kind),
  eventId: d.eventId,
  eventType: d.eventType,
  status: DeliveryStatus.parse(d.status),
  attempts: d.attempts,
  maxAttempts: d.maxAttempts,
  responseCode: d.responseCode,
  lastError: d.lastError,
  nextAttemptAt: d.nextAttemptAt,
  durationMs: d.durationMs,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  deliveredAt: d.deliveredAt,
});

/** The view of a webhook with its delivery counts and its newest delivery. */
export async function webhookView(s: Sql, row: WebhookRow): Promise<WebhookView> {
  const counts = await s.all<Pick<WebhookDeliveryRow, "status"> & { n: number }>(
    sql`SELECT "status", COUNT(*) AS "n" FROM "WebhookDelivery" WHERE "webhookPk" = ${row.pk} GROUP BY "status"`,
  );
  const last = await s.get<WebhookDeliveryRow>(sql`SELECT * FROM "WebhookDelivery" WHERE "webhookPk" = ${row.pk} ORDER BY "id" DESC LIMIT 1`);
  const n = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    team: row.teamId,
    id: row.id,
    url: row.url,
    format: WebhookFormat.parse(row.format),
    events: eventsOf(row),
    enabled: row.enabled === 1,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deliveries: { pending: n("pending"), sending: n("sending"), delivered: n("delivered"), failed: n("failed") },
    last: last ? toDeliveryView(last, row.id) : null,
  };
}
