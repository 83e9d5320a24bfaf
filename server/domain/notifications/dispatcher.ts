/**
 * The webhook dispatcher (docs/notifications.md#deliveries): after commit, never inside the write being notified.
 * It reads the event log after a durable cursor, as the pipeline runner does, so an event committed while a hub was
 * down is still delivered; each (webhook, event) pair becomes one delivery row (unique, so hubs sharing the database
 * enqueue it once). Deliveries are then claimed in short writes and attempted outside any transaction, a bounded
 * number at a time and per webhook, so a receiver that hangs or fails holds up nothing but its own deliveries; a
 * receiver that keeps failing is tried less and less often, so it costs the hub (and itself) little.
 */
import type { Sql } from "../../db/connection.ts";
import { fromSqlDate } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { inList, sql } from "../../db/sql.ts";
import type { EventRow, WebhookCursorRow, WebhookDeliveryRow, WebhookRow } from "../../db/rows.ts";
import type { EventBus } from "../../events/bus.ts";
import type { EventType, HubEvent } from "../../events/types.ts";
import { WebhookFormat, type ParsedSelector } from "../../../lib/api/webhooks.ts";
import type { DomainDeps } from "../deps.ts";
import { toHubEvent } from "../events/events.service.ts";
import { attempt } from "./attempt.ts";
import { backoffMs, type WebhookConfig } from "./config.ts";
import { claim, claimantOf, insertDelivery, leaseMs, prune, record, releaseClaims, requestOf, type Claimed } from "./deliveries.ts";
import { render } from "./render.ts";
import { selectorsOf } from "./webhooks.repo.ts";

const DISPATCHER = "webhook-dispatcher";
/** Events read at a time, and deliveries written in one write: small, so each write is short. */
const BATCH = 100;
const PER_WRITE = 20;
/** Scanned events after which the cursor is written even though none concerned a webhook: bounds the re-read after a restart. */
const CURSOR_EVERY = 5000;
/** Deliveries another hub scheduled, or lapsed claims, are looked for at least this often while any webhook is enabled. */
const POLL_MS = 30_000;
/** A burst of commits (or of attempts ending) is served by one pass rather than one pass each. */
const COALESCE_MS = 20;

type Hook = Pick<WebhookRow, "pk" | "teamId" | "id" | "format" | "fromEventId"> & { selectors: ParsedSelector[] };
type Pair = { e: HubEvent; h: Hook };

/** Whether an event is one a webhook's selectors name (a qualifier compares the payload field it names). */
export function matches(selectors: readonly ParsedSelector[], e: HubEvent): boolean {
  return selectors.some((s) => {
    if (!s.types.includes(e.type)) return false;
    if (s.field === undefined) return true;
    const payload: object = e.payload;
    return Object.entries(payload).some(([k, v]) => k === s.field && v === s.value);
  });
}

/** The webhooks an event goes to: its team's, listening to it, created before it; hub-wide events to every one that lists them. */
const concerned = (hooks: readonly Hook[], e: HubEvent) =>
  hooks.filter((h) => (e.teamId === null || e.teamId === h.teamId) && e.id > h.fromEventId && matches(h.selectors, e));

export class WebhookDispatcher {
  /** The enabled webhooks, loaded once and again after any `webhook.*` event; null: to load. */
  private hooks: Hook[] | null = null;
  private types = new Set<EventType>();
  private cursor: number | null = null;
  private scannedSinceWrite = 0;
  private readonly claimant: string;
  private readonly inFlight = new Map<number, { webhookPk: number; done: Promise<void> }>();
  /** Webhooks whose receiver failed last time, by pk: not tried again before `until` (their failures in a row set it). */
  private readonly cooling = new Map<number, { failures: number; until: number }>();
  private running: Promise<void> | null = null;
  /** A pass was asked for while one ran. */
  private again = false;
  private soon: NodeJS.Timeout | null = null;
  private needEnqueue = true;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe?: () => void;
  private readonly now: () => Date;

  constructor(
    private readonly deps: DomainDeps,
    private readonly config: WebhookConfig,
    options: { clock?: () => Date } = {},
  ) {
    this.claimant = claimantOf(deps.db);
    this.now = options.clock ?? (() => new Date());
  }

  async start(bus: EventBus): Promise<void> {
    this.unsubscribe = bus.subscribe((events) => {
      if (events.some((e) => e.type.startsWith("webhook."))) this.hooks = null;
      // Most commits concern no webhook: they cost a set lookup, not a read.
      if (this.hooks === null || events.some((e) => this.types.has(e.type))) this.wake(true);
    });
    if (this.deps.db.hub) await this.deps.db.write("webhook.release", DISPATCHER, (tx) => releaseClaims(tx, this.claimant));
    this.wake(true);
  }

  /** Stops taking work and waits for the attempts under way (each ends by its time limit). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const t of [this.timer, this.soon]) if (t) clearTimeout(t);
    await this.running;
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  /** Something was committed (`enqueue`), or an attempt ended: one pass runs shortly, once more if one is under way. */
  wake(enqueue = false): void {
    if (this.stopped) return;
    if (enqueue) this.needEnqueue = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.soon ??= setTimeout(() => {
      this.soon = null;
      this.run();
    }, COALESCE_MS);
  }

  private run(): void {
    if (this.stopped || this.running) return;
    this.running = (async () => {
      do {
        this.again = false;
        const enqueue = this.needEnqueue;
        this.needEnqueue = false;
        try {
          this.hooks ??= await this.loadHooks();
          if (enqueue) await this.enqueue(this.hooks);
          await this.pump(this.hooks);
        } catch (e) {
          console.error("[teamhub] webhook dispatcher failed; it tries again shortly:", e);
        }
      } while (this.again && !this.stopped);
      await this.schedule();
    })().finally(() => {
      this.running = null;
      // Woken while the last pass was finishing: that wake still gets its pass.
      if (this.again) this.wake();
    });
  }

  /**
   * Delivery rows for every event after the cursor that a webhook listens to. Done in small writes with a turn of the
   * event loop between them, so that a burst of events never holds the hub's writes or its answers for long.
   */
  private async enqueue(hooks: Hook[]): Promise<void> {
    if (!hooks.length) return;
    const types = inList(this.types);
    this.cursor ??= await this.deps.db.read((s) => this.startAt(s, hooks));
    while (!this.stopped) {
      const rows = await this.deps.db.read((s) =>
        s.all<EventRow>(sql`SELECT * FROM "Event" WHERE "id" > ${this.cursor} AND "type" IN ${types} ORDER BY "id" LIMIT ${BATCH}`),
      );
      if (!rows.length) return;
      let pairs: Pair[] = [];
      for (const [i, row] of rows.entries()) {
        const e = toHubEvent(row);
        pairs.push(...concerned(hooks, e).map((h) => ({ e, h })));
        this.scannedSinceWrite++;
        const end = i === rows.length - 1;
        if (pairs.length >= PER_WRITE || (end && (pairs.length || this.scannedSinceWrite >= CURSOR_EVERY))) {
          const chunk = pairs;
          await this.deps.db.write("webhook.enqueue", DISPATCHER, (tx) => this.insert(tx, chunk, e.id));
          this.scannedSinceWrite = 0;
          pairs = [];
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Past an event only once its deliveries are written: a failed write is read again on the next pass.
        if (!pairs.length) this.cursor = e.id;
      }
      if (rows.length < BATCH) return;
    }
  }

  private async insert(tx: WriteTx, pairs: Pair[], last: number): Promise<void> {
    // A webhook deleted or disabled since it was loaded gets nothing.
    const pks = new Set(pairs.map((p) => p.h.pk));
    const live = new Set(
      (await tx.all<Pick<WebhookRow, "pk">>(sql`SELECT "pk" FROM "Webhook" WHERE "enabled" = ${true} AND "pk" IN ${inList(pks)}`)).map((r) => r.pk),
    );
    const touched = new Set<number>();
    for (const { e, h } of pairs) {
      if (!live.has(h.pk)) continue;
      const rendered = render({ format: WebhookFormat.parse(h.format), webhook: h.id, team: h.teamId, event: e, dashboardUrl: this.config.dashboardUrl });
      const d = { webhook: { pk: h.pk, teamId: h.teamId }, kind: "event" as const, eventId: e.id, eventType: e.type, rendered };
      if ((await insertDelivery(tx, d, { status: "pending", maxAttempts: this.config.attempts })) !== null) touched.add(h.pk);
    }
    for (const pk of touched) await prune(tx, pk);
    await tx.run(
      sql`INSERT INTO "WebhookCursor" ("id","lastEventId") VALUES (1, ${last}) ON CONFLICT ("id") DO UPDATE SET "lastEventId" = CASE WHEN excluded."lastEventId" > "WebhookCursor"."lastEventId" THEN excluded."lastEventId" ELSE "WebhookCursor"."lastEventId" END`,
    );
  }

  /** Where reading starts: the stored cursor, or the oldest webhook's start when that is later (nothing before it concerns any). */
  private async startAt(s: Sql, hooks: readonly Hook[]): Promise<number> {
    const stored = (await s.get<Pick<WebhookCursorRow, "lastEventId">>(sql`SELECT "lastEventId" FROM "WebhookCursor" WHERE "id" = 1`))?.lastEventId ?? 0;
    return Math.max(stored, Math.min(...hooks.map((h) => h.fromEventId)));
  }

  private async loadHooks(): Promise<Hook[]> {
    const rows = await this.deps.db.read((s) =>
      s.all<Pick<WebhookRow, "pk" | "teamId" | "id" | "format" | "events" | "fromEventId">>(
        sql`SELECT "pk","teamId","id","format","events","fromEventId" FROM "Webhook" WHERE "enabled" = ${true} ORDER BY "pk"`,
      ),
    );
    const hooks = rows.map((r) => ({ pk: r.pk, teamId: r.teamId, id: r.id, format: r.format, fromEventId: r.fromEventId, selectors: selectorsOf(r) }));
    this.types = new Set(hooks.flatMap((h) => h.selectors.flatMap((s) => s.types)));
    return hooks;
  }

  /**
   * Claims what is due, within the limits on requests in flight, and starts their attempts. Webhooks at their limit or
   * in a pause are left out of the query, so a backlog of theirs never hides another webhook's due deliveries.
   */
  private async pump(hooks: Hook[]): Promise<void> {
    const free = this.config.concurrency - this.inFlight.size;
    if (!hooks.length || free <= 0) return;
    const now = this.now();
    const perHook = new Map<number, number>();
    for (const f of this.inFlight.values()) perHook.set(f.webhookPk, (perHook.get(f.webhookPk) ?? 0) + 1);
    const open = hooks.map((h) => h.pk).filter((pk) => (perHook.get(pk) ?? 0) < this.config.perWebhook && (this.cooling.get(pk)?.until ?? 0) <= now.getTime());
    if (!open.length) return;
    // One query per open webhook, on its own index range: a webhook's backlog (a receiver that hangs) is never scanned
    // for another's due deliveries, on every pass (it was: /api/health p99 rose with the backlog).
    const limit = 4 * this.config.concurrency;
    const due = await this.deps.db.read(async (s) => {
      const pending: Array<{ id: number; webhookPk: number; at: number }> = [];
      const lapsed: Array<{ id: number; webhookPk: number }> = [];
      for (const pk of open) {
        const rows = await s.all<Pick<WebhookDeliveryRow, "id" | "webhookPk" | "nextAttemptAt">>(
          sql`SELECT "id", "webhookPk", "nextAttemptAt" FROM "WebhookDelivery" WHERE "webhookPk" = ${pk} AND "status" = 'pending' AND "nextAttemptAt" <= ${now} ORDER BY "nextAttemptAt", "id" LIMIT ${limit}`,
        );
        pending.push(...rows.map((d) => ({ id: d.id, webhookPk: d.webhookPk, at: d.nextAttemptAt!.getTime() })));
        lapsed.push(
          ...(await s.all<Pick<WebhookDeliveryRow, "id" | "webhookPk">>(
            sql`SELECT "id", "webhookPk" FROM "WebhookDelivery" WHERE "webhookPk" = ${pk} AND "status" = 'sending' AND "claimedUntil" < ${now} LIMIT ${this.config.concurrency}`,
          )),
        );
      }
      pending.sort((a, b) => a.at - b.at || a.id - b.id);
      return [...pending.slice(0, limit), ...lapsed.slice(0, this.config.concurrency)];
    });
    const pick: number[] = [];
    for (const d of due) {
      if (pick.length === free) break;
      const n = perHook.get(d.webhookPk) ?? 0;
      if (n >= this.config.perWebhook || this.inFlight.has(d.id)) continue;
      perHook.set(d.webhookPk, n + 1);
      pick.push(d.id);
    }
    if (!pick.length) return;
    const claimed = await this.deps.db.write("webhook.claim", DISPATCHER, (tx) => claim(tx, pick, this.claimant, leaseMs(this.config)));
    for (const c of claimed) this.launch(c);
    // More may be due than one query showed (the first rows all one webhook's): look again once these are under way.
    if (claimed.length && pick.length < free && due.length === 4 * this.config.concurrency) this.again = true;
  }

  private launch(c: Claimed): void {
    const done = (async () => {
      const outcome = await attempt(requestOf(c), this.config.timeoutMs);
      // A receiver that could not take it is left alone for a while before its next delivery; one that did is not.
      if (outcome.retry) {
        const failures = Math.min((this.cooling.get(c.webhookPk)?.failures ?? 0) + 1, this.config.attempts);
        this.cooling.set(c.webhookPk, { failures, until: this.now().getTime() + backoffMs(this.config, failures, outcome.retryAfterMs) });
      } else this.cooling.delete(c.webhookPk);
      try {
        await this.deps.db.write("webhook.attempt", DISPATCHER, (tx) => record(tx, c, outcome, this.claimant, this.config));
      } catch (e) {
        // The claim lapses and the delivery is attempted again: at least once, never lost.
        console.error(`[teamhub] webhook '${c.webhook}' of team '${c.teamId}': recording delivery ${c.id} failed:`, e);
      }
    })().finally(() => {
      this.inFlight.delete(c.id);
      this.wake();
    });
    this.inFlight.set(c.id, { webhookPk: c.webhookPk, done });
  }

  /** Wakes at the next retry, lapsing claim or end of a receiver's pause, and at least every POLL_MS while a webhook is enabled. */
  private async schedule(): Promise<void> {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.hooks?.length) return;
    try {
      // A disabled webhook's deliveries wait for it to be enabled again, which is an event: they set no timer.
      const enabled = inList(this.hooks.map((h) => h.pk));
      const next = await this.deps.db.read(async (s) => {
        const pending = await s.get<{ at: unknown }>(
          sql`SELECT MIN("nextAttemptAt") AS "at" FROM "WebhookDelivery" WHERE "status" = 'pending' AND "webhookPk" IN ${enabled}`,
        );
        const lapsing = await s.get<{ at: unknown }>(sql`SELECT MIN("claimedUntil") AS "at" FROM "WebhookDelivery" WHERE "status" = 'sending'`);
        return [fromSqlDate(pending?.at), fromSqlDate(lapsing?.at)].filter((d): d is Date => d !== null).map((d) => d.getTime());
      });
      const now = this.now().getTime();
      const cooled = [...this.cooling.values()].map((c) => c.until).filter((t) => t > now);
      // Due now yet not taken: held back by a receiver's pause (wait for the first to end), or claimed meanwhile by another hub.
      const at = next.map((t) => (t > now ? t : cooled.length ? Math.min(...cooled) : now + 1000));
      const wait = Math.min(POLL_MS, ...at.map((t) => t - now + 1));
      this.timer = setTimeout(() => this.wake(true), Math.max(COALESCE_MS, wait));
    } catch (e) {
      console.error("[teamhub] webhook dispatcher could not read its next due time:", e);
      this.timer = setTimeout(() => this.wake(true), POLL_MS);
    }
    this.timer.unref();
  }
}
