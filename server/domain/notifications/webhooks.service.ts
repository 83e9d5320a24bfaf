/**
 * A team's webhooks (docs/notifications.md): create, list, change, delete, test, and the delivery log. Each change is
 * one write that appends its `webhook.*` event; the operator and the team's leads manage them (the `webhook.*`
 * capabilities). Deliveries themselves are the dispatcher's (./dispatcher.ts), after commit.
 */
import type { Sql } from "../../db/connection.ts";
import { join, sql } from "../../db/sql.ts";
import type { WebhookDeliveryRow, WebhookRow } from "../../db/rows.ts";
import { conflict, invalid } from "../../errors.ts";
import { isHubWide, parseSelector, MAX_WEBHOOKS_PER_TEAM, WebhookFormat } from "../../../lib/api/webhooks.ts";
import type {
  CreateWebhookInput,
  DeliveriesInput,
  DeliveryList,
  DeliveryView,
  UpdateWebhookInput,
  WebhookCreated,
  WebhookRefInput,
  WebhookView,
} from "../../../lib/api/webhooks.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize, type Operation } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import type { WriteTx } from "../../db/database.ts";
import { attempt } from "./attempt.ts";
import type { WebhookConfig } from "./config.ts";
import { claimantOf, insertDelivery, leaseMs, prune, record, requestOf, type Claimed } from "./deliveries.ts";
import { render } from "./render.ts";
import { newSecret } from "./signature.ts";
import { eventsOf, loadWebhook, originOf, toDeliveryView, webhookView } from "./webhooks.repo.ts";

const lastEventId = async (s: Sql) => (await s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`))!.id;

/** Refused unless the actor may do `operation` on the team's webhooks. */
const allowed = (s: Sql, actor: Principal, operation: Operation, team: string, id?: string) =>
  authorize(s, actor, operation, { team, ...(id ? { label: `'${id}'` } : {}) });

/** Hub-wide events (accounts, hubs, tokens) are the operator's to read: only the operator points a webhook at them. */
async function hubWideAllowed(s: Sql, actor: Principal, events: readonly string[], id: string): Promise<void> {
  const hubWide = events.filter((s) => {
    const parsed = parseSelector(s);
    return !("error" in parsed) && parsed.types.some(isHubWide);
  });
  if (hubWide.length) await authorize(s, actor, "webhook.hub_events", { team: null, label: `'${id}' (${hubWide.join(", ")})` });
}

export async function createWebhook({ db }: DomainDeps, actor: Principal, input: CreateWebhookInput): Promise<WebhookCreated> {
  return db.write(
    "webhook.create",
    actor.name,
    async (tx) => {
      await allowed(tx, actor, "webhook.create", input.team);
      await hubWideAllowed(tx, actor, input.events, input.id);
      await ensureTeam(tx, input.team);
      if (await tx.get(sql`SELECT 1 FROM "Webhook" WHERE "teamId" = ${input.team} AND "id" = ${input.id}`)) {
        throw conflict(`webhook '${input.id}' already exists in team '${input.team}'`, { field: "id" });
      }
      const { n } = (await tx.get<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM "Webhook" WHERE "teamId" = ${input.team}`))!;
      if (n >= MAX_WEBHOOKS_PER_TEAM) {
        throw invalid([{ field: "team", rule: "max_webhooks", message: `team '${input.team}' has ${n} webhooks, the most a team may have; delete one first` }]);
      }
      const secret = input.secret ?? newSecret();
      const events = [...new Set(input.events)];
      await tx.run(
        sql`INSERT INTO "Webhook" ("teamId","id","url","format","events","secret","enabled","createdBy","fromEventId","createdAt","updatedAt") VALUES (${input.team},${input.id},${input.url},${input.format},${JSON.stringify(events)},${secret},${input.enabled},${actor.name},${await lastEventId(tx)},${tx.now},${tx.now})`,
      );
      await tx.emit({
        teamId: input.team,
        type: "webhook.created",
        subject: `webhook:${input.id}`,
        payload: { id: input.id, format: input.format, events, enabled: input.enabled, origin: originOf(input.url), by: actor.name },
      });
      return { ...(await webhookView(tx, await loadWebhook(tx, input.team, input.id))), secret };
    },
    { team: input.team },
  );
}

export async function listWebhooks({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<WebhookView[]> {
  return db.read(async (s) => {
    await allowed(s, actor, "webhook.list", input.team);
    const rows = await s.all<WebhookRow>(sql`SELECT * FROM "Webhook" WHERE "teamId" = ${input.team} ORDER BY "id"`);
    return Promise.all(rows.map((r) => webhookView(s, r)));
  });
}

/**
 * Changes the URL, the events or `enabled`. Enabled again, a webhook concerns only events from then on: what happened
 * while it was off is not sent late. Its deliveries already waiting stay, and go out once it is enabled.
 */
export async function updateWebhook({ db }: DomainDeps, actor: Principal, input: UpdateWebhookInput): Promise<WebhookView> {
  return db.write(
    "webhook.update",
    actor.name,
    async (tx) => {
      await allowed(tx, actor, "webhook.update", input.team, input.id);
      await ensureTeam(tx, input.team);
      const row = await loadWebhook(tx, input.team, input.id);
      const url = input.url ?? row.url;
      const events = input.events ? [...new Set(input.events)] : eventsOf(row);
      const enabled = input.enabled ?? row.enabled === 1;
      // Pointing hub-wide events somewhere new is the operator's; a lead may still switch such a webhook off or on.
      if (input.url !== undefined || input.events !== undefined) await hubWideAllowed(tx, actor, events, input.id);
      const changed = (["url", "events", "enabled"] as const).filter((k) => input[k] !== undefined);
      const from = enabled && row.enabled !== 1 ? await lastEventId(tx) : row.fromEventId;
      await tx.run(
        sql`UPDATE "Webhook" SET "url" = ${url}, "events" = ${JSON.stringify(events)}, "enabled" = ${enabled}, "fromEventId" = ${from}, "updatedAt" = ${tx.now} WHERE "pk" = ${row.pk}`,
      );
      await tx.emit({
        teamId: input.team,
        type: "webhook.updated",
        subject: `webhook:${input.id}`,
        payload: { id: input.id, changed, events, enabled, origin: originOf(url), by: actor.name },
      });
      return webhookView(tx, await loadWebhook(tx, input.team, input.id));
    },
    { team: input.team },
  );
}

/** Removes the webhook and its delivery log; deliveries still waiting are dropped (counted in the event). */
export async function deleteWebhook({ db }: DomainDeps, actor: Principal, input: WebhookRefInput): Promise<{ deleted: string; team: string }> {
  return db.write(
    "webhook.delete",
    actor.name,
    async (tx) => {
      await allowed(tx, actor, "webhook.delete", input.team, input.id);
      await ensureTeam(tx, input.team);
      const row = await loadWebhook(tx, input.team, input.id);
      const { n } = (await tx.get<{ n: number }>(
        sql`SELECT COUNT(*) AS "n" FROM "WebhookDelivery" WHERE "webhookPk" = ${row.pk} AND "status" IN ('pending','sending')`,
      ))!;
      await tx.run(sql`DELETE FROM "WebhookDelivery" WHERE "webhookPk" = ${row.pk}`);
      await tx.run(sql`DELETE FROM "Webhook" WHERE "pk" = ${row.pk}`);
      await tx.emit({ teamId: input.team, type: "webhook.deleted", subject: `webhook:${input.id}`, payload: { id: input.id, dropped: n, by: actor.name } });
      return { deleted: input.id, team: input.team };
    },
    { team: input.team },
  );
}

/** The webhook's deliveries, newest first, a page at a time (`nextCursor`: the id to continue before). */
export async function listDeliveries({ db }: DomainDeps, actor: Principal, input: DeliveriesInput): Promise<DeliveryList> {
  return db.read(async (s) => {
    await allowed(s, actor, "webhook.deliveries", input.team, input.id);
    const row = await loadWebhook(s, input.team, input.id);
    const where = [sql`"webhookPk" = ${row.pk}`];
    if (input.status) where.push(sql`"status" = ${input.status}`);
    if (input.cursor !== undefined) where.push(sql`"id" < ${input.cursor}`);
    const rows = await s.all<WebhookDeliveryRow>(
      sql`SELECT * FROM "WebhookDelivery" WHERE ${join(where, " AND ")} ORDER BY "id" DESC LIMIT ${input.limit + 1}`,
    );
    const page = rows.slice(0, input.limit);
    return { deliveries: page.map((d) => toDeliveryView(d, row.id)), nextCursor: rows.length > input.limit ? page[page.length - 1].id : null };
  });
}

/**
 * Sends one test notification now, whether the webhook is enabled or not, and answers how it went: a delivery of
 * kind `test` with one attempt, in the log like any other. The request runs between two writes, never inside one.
 */
export async function testWebhook(deps: DomainDeps, actor: Principal, input: WebhookRefInput, config: WebhookConfig): Promise<DeliveryView> {
  const claimant = claimantOf(deps.db);
  const claimed = await deps.db.write(
    "webhook.test",
    actor.name,
    async (tx): Promise<Claimed> => {
      await allowed(tx, actor, "webhook.test", input.team, input.id);
      await ensureTeam(tx, input.team);
      const row = await loadWebhook(tx, input.team, input.id);
      const rendered = render({ format: WebhookFormat.parse(row.format), webhook: row.id, team: row.teamId, event: null, dashboardUrl: config.dashboardUrl });
      const until = new Date(tx.now.getTime() + leaseMs(config));
      const id = (await insertDelivery(
        tx,
        { webhook: row, kind: "test", eventId: null, eventType: "webhook.test", rendered },
        { status: "sending", maxAttempts: 1, claimedBy: claimant, claimedUntil: until },
      ))!;
      await prune(tx, row.pk);
      const d = (await tx.get<WebhookDeliveryRow>(sql`SELECT * FROM "WebhookDelivery" WHERE "id" = ${id}`))!;
      return { ...d, url: row.url, secret: row.secret, webhook: row.id };
    },
    { team: input.team },
  );
  const outcome = await attempt(requestOf(claimed), config.timeoutMs);
  return deps.db.write(
    "webhook.tested",
    actor.name,
    async (tx: WriteTx) => {
      await record(tx, claimed, outcome, claimant, config);
      await tx.emit({
        teamId: input.team,
        type: "webhook.tested",
        subject: `webhook:${input.id}`,
        payload: { id: input.id, status: outcome.delivered ? "delivered" : "failed", responseCode: outcome.responseCode, error: outcome.error, by: actor.name },
      });
      const d = await tx.get<WebhookDeliveryRow>(sql`SELECT * FROM "WebhookDelivery" WHERE "id" = ${claimed.id}`);
      // Deleted meanwhile: the outcome is still the answer.
      return d
        ? toDeliveryView(d, input.id)
        : toDeliveryView(
            { ...claimed, status: outcome.delivered ? "delivered" : "failed", responseCode: outcome.responseCode, lastError: outcome.error },
            input.id,
          );
    },
    { team: input.team },
  );
}
