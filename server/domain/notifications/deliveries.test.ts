/**
 * Delivering webhooks (docs/notifications.md#deliveries) against real receivers on 127.0.0.1: signed bodies for the
 * events a webhook chose, retries with backoff until the attempts run out, a hanging receiver given up on without
 * holding up anything else, deliveries that survive a restart, exactly once across two hubs, and the test button.
 */
import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CreateContractInput, ReasonInput } from "../../../lib/api/contracts.ts";
import { WireEvent } from "../../../lib/api/events.ts";
import { CreateWebhookInput, DeliveriesInput, WebhookRefInput, type DeliveryView } from "../../../lib/api/webhooks.ts";
import { sql } from "../../db/sql.ts";
import type { WebhookRow } from "../../db/rows.ts";
import { sessionKit } from "../../testing/session-kit.ts";
import { POSTGRES_URL, hubOn, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { startReceiver, type Answer, type Receiver } from "../../testing/webhook-receiver.ts";
import { createContract, failContract } from "../contracts/contracts.service.ts";
import { OPERATOR, SUPERVISOR } from "../principal.ts";
import { requestApproval } from "../sessions/runtime.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "./config.ts";
import { WebhookDispatcher } from "./dispatcher.ts";
import { insertDelivery } from "./deliveries.ts";
import { render } from "./render.ts";
import { verifySignature } from "./signature.ts";
import { createWebhook, listDeliveries, testWebhook } from "./webhooks.service.ts";

// Short pauses, so retries happen within a test; a time limit no loaded machine's receiver in this process misses.
const FAST: WebhookConfig = { ...DEFAULT_WEBHOOK_CONFIG, timeoutMs: 5000, attempts: 3, retryBaseMs: 100 };

let hub: TempHub;
const closing: Array<() => Promise<void>> = [];
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await hub.close();
});

async function receiver(answer?: (r: { path: string }, n: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  closing.push(() => r.close());
  return r;
}

async function dispatcher(on: TempHub = hub, config: WebhookConfig = FAST): Promise<WebhookDispatcher> {
  const d = new WebhookDispatcher(on, config, { clock: hub.clock.now });
  await d.start(on.bus);
  closing.push(() => d.stop());
  return d;
}

const webhook = (raw: Record<string, unknown>) => createWebhook(hub, OPERATOR, parseOrThrow(CreateWebhookInput, { team: "t", ...raw }));
const deliveries = async (id: string) => (await listDeliveries(hub, OPERATOR, parseOrThrow(DeliveriesInput, { team: "t", id }))).deliveries;
const failed = async (id: string, reason = "tests never passed") => {
  await createContract(hub, OPERATOR, CreateContractInput.parse({ team: "t", id, title: "Work", assignee: "dev" }));
  await failContract(hub, OPERATOR, ReasonInput.parse({ team: "t", id, reason }));
};
/** The deliveries of a webhook once `until` holds for them. */
const settled = (id: string, until: (d: DeliveryView[]) => boolean, timeout = 20_000) =>
  vi.waitFor(
    async () => {
      const list = await deliveries(id);
      if (!until(list)) throw new Error(`not yet: ${JSON.stringify(list.map((d) => [d.eventType, d.status, d.attempts, d.lastError]))}`);
      return list;
    },
    { timeout, interval: 20 },
  );

describe("webhook deliveries", () => {
  it("sends signed JSON for an approval waiting, a failed contract and a usage limit hit and lifted; nothing else", async () => {
    const r = await receiver();
    const { secret } = await webhook({
      id: "ops",
      url: `${r.url}/hook`,
      events: ["session.approval_requested", "contract.status_changed:failed", "account.limited", "account.released"],
    });
    await dispatcher();

    const k = sessionKit(hub);
    await k.spawn({ team: "t", name: "waiter", prompt: "go" });
    await k.launched("waiter");
    await k.startTurn("waiter");
    await requestApproval(hub, await k.pk("waiter"), {
      requestId: "r1",
      toolName: "Bash",
      input: { command: "rm -rf build" },
      reason: "edit preset asks before Bash",
    });
    // Created and readied: status changes the webhook did not choose.
    await createContract(hub, OPERATOR, CreateContractInput.parse({ team: "t", id: "fine", title: "Fine", assignee: "dev" }));
    await failed("doomed");
    // The usage-limit events are hub-wide (an account spans teams); this webhook is the operator's, so it gets them.
    await hub.db.write("test.limit", SUPERVISOR.name, async (tx) => {
      const account = { account: "acct-1", label: "OAuth token ab12cd", window: "five_hour" };
      await tx.emit({
        teamId: null,
        type: "account.limited",
        subject: "account:acct-1",
        payload: { ...account, resetsAt: new Date("2030-01-01T18:00:00Z"), message: "You've hit your 5-hour limit", by: "waiter" },
      });
      await tx.emit({
        teamId: null,
        type: "account.released",
        subject: "account:acct-1",
        payload: { ...account, how: "reset", by: "hub", heldMs: 20_000, sessions: ["waiter"] },
      });
    });

    // Two at a time per webhook: they may arrive in any order.
    const got = (await r.waitFor(4)).toSorted((x, y) => JSON.parse(x.body).event.id - JSON.parse(y.body).event.id);
    for (const req of got) {
      const headers = { signature: String(req.headers["x-teamhub-signature"]), timestamp: String(req.headers["x-teamhub-timestamp"]) };
      expect(verifySignature(secret, headers, req.body)).toBe(true);
      // The scheme as docs/notifications.md writes it out, computed independently.
      expect(headers.signature).toBe(`sha256=${createHmac("sha256", secret).update(`${headers.timestamp}.${req.body}`).digest("hex")}`);
      expect(verifySignature("whsec_not-the-secret", headers, req.body)).toBe(false);
      expect(verifySignature(secret, headers, req.body.replace("}", " }"))).toBe(false);
      expect(req.headers["content-type"]).toBe("application/json");
    }
    const bodies = got.map((req) => JSON.parse(req.body));
    expect(bodies.map((b) => [b.webhook, b.team, b.test, b.event.type, b.event.subject])).toEqual([
      ["ops", "t", false, "session.approval_requested", "session:waiter"],
      ["ops", "t", false, "contract.status_changed", "contract:doomed"],
      ["ops", "t", false, "account.limited", "account:acct-1"],
      ["ops", "t", false, "account.released", "account:acct-1"],
    ]);
    expect(bodies[0].event.payload).toMatchObject({ name: "waiter", toolName: "Bash", input: { command: "rm -rf build" } });
    expect(bodies[0].title).toBe("[t] Approval waiting: waiter");
    expect(bodies[2].title).toMatch(/^\[hub\] account\.limited account:acct-1/);
    // The event is the wire's: what GET /api/events and /ws carry, parsed by the same schema.
    for (const b of bodies) expect(WireEvent.parse(b.event).id).toBe(b.event.id);
    expect(bodies[1].event.payload).toMatchObject({ id: "doomed", to: "failed", reason: "tests never passed" });
    expect(bodies[2].event.payload).toMatchObject({ window: "five_hour", resetsAt: "2030-01-01T18:00:00.000Z" });
    expect(got.map((req) => req.headers["x-teamhub-event"])).toEqual([
      "session.approval_requested",
      "contract.status_changed",
      "account.limited",
      "account.released",
    ]);
    const log = await settled("ops", (l) => l.length === 4 && l.every((d) => d.status === "delivered"));
    expect(log.map((d) => [d.eventType, d.attempts, d.responseCode, d.lastError])).toEqual([
      ["account.released", 1, 200, null],
      ["account.limited", 1, 200, null],
      ["contract.status_changed", 1, 200, null],
      ["session.approval_requested", 1, 200, null],
    ]);
    expect(r.received).toHaveLength(4);
  });

  it("retries a receiver that answers 500 with growing pauses, then marks the delivery failed", async () => {
    const r = await receiver(() => 500);
    await webhook({ id: "flaky", url: r.url, events: ["contract.status_changed:failed"] });
    await dispatcher();
    await failed("c1");
    const [d] = await settled("flaky", (l) => l[0]?.status === "failed");
    expect(d).toMatchObject({ attempts: 3, maxAttempts: 3, responseCode: 500, lastError: "HTTP 500 Internal Server Error", nextAttemptAt: null });
    expect(r.received).toHaveLength(3);
    const [a, b, c] = r.received.map((x) => x.at);
    // Backoff: the base, then twice the base (each plus up to 10% jitter).
    expect(b - a).toBeGreaterThanOrEqual(FAST.retryBaseMs);
    expect(c - b).toBeGreaterThanOrEqual(2 * FAST.retryBaseMs);
    // Each attempt is signed anew: its own timestamp and signature over the same body.
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  });

  it("honours a receiver's Retry-After, and gives up at once on a refusal retrying cannot fix", async () => {
    const slow = await receiver((_, n) => (n === 1 ? { status: 429, headers: { "retry-after": "1" } } : 200));
    const gone = await receiver(() => 404);
    await webhook({ id: "slow", url: slow.url, events: ["contract.status_changed:failed"] });
    await webhook({ id: "gone", url: gone.url, events: ["contract.status_changed:failed"] });
    await dispatcher();
    await failed("c1");
    const [d] = await settled("slow", (l) => l[0]?.status === "delivered");
    expect(d.attempts).toBe(2);
    expect(slow.received[1].at - slow.received[0].at).toBeGreaterThanOrEqual(1000);
    const [g] = await settled("gone", (l) => l[0]?.status === "failed");
    expect([g.attempts, g.responseCode, g.lastError]).toEqual([1, 404, "HTTP 404 Not Found"]);
  });

  it("gives up on a receiver that hangs after the time limit, while the write it notifies returned at once and other webhooks are served", async () => {
    const hang = await receiver(() => "hang");
    const fine = await receiver();
    await webhook({ id: "hangs", url: hang.url, events: ["contract.status_changed:failed"] });
    await webhook({ id: "fine", url: fine.url, events: ["contract.status_changed:failed"] });
    const config = { ...FAST, timeoutMs: 1000, attempts: 2 };
    await dispatcher(hub, config);
    await failed("c1");
    // The write is done while the hanging receiver still holds its request.
    await hang.waitFor(1);
    expect((await deliveries("hangs"))[0].status).toBe("sending");
    await settled("fine", (l) => l[0]?.status === "delivered");
    const [d] = await settled("hangs", (l) => l[0]?.status === "failed", 20_000);
    expect(d).toMatchObject({ attempts: 2, responseCode: null, lastError: `no answer within ${config.timeoutMs} ms` });
    expect(d.durationMs).toBeGreaterThanOrEqual(config.timeoutMs - 5);
    expect(hang.received).toHaveLength(2);
  });

  it("renders Slack's {text} and ntfy's plain text with Title, Priority and Tags", async () => {
    const r = await receiver();
    await webhook({ id: "slack", url: `${r.url}/slack`, events: ["contract.status_changed:failed"], format: "slack" });
    await webhook({ id: "ntfy", url: `${r.url}/ntfy`, events: ["contract.status_changed:failed"], format: "ntfy" });
    await dispatcher();
    await failed("c1", "the build <broke> & stayed broken");
    const [slack] = await r.waitFor(1, { path: "/slack" });
    expect(JSON.parse(slack.body)).toEqual({ text: "*[t] Contract c1: ready → failed*\nAssigned to dev. Reason: the build &lt;broke&gt; &amp; stayed broken" });
    const [ntfy] = await r.waitFor(1, { path: "/ntfy" });
    expect(ntfy.body).toBe("Assigned to dev. Reason: the build <broke> & stayed broken");
    expect(ntfy.headers["content-type"]).toBe("text/plain; charset=utf-8");
    // Not plain ASCII (the arrow): RFC 2047, which ntfy decodes.
    expect(ntfy.headers.title).toBe(`=?UTF-8?B?${Buffer.from("[t] Contract c1: ready → failed").toString("base64")}?=`);
    expect([ntfy.headers.priority, ntfy.headers.tags]).toEqual(["4", "x"]);
    expect(ntfy.headers["x-teamhub-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("delivers what was committed while no hub ran, and a retry that was waiting when its hub stopped", async () => {
    let down = true;
    const r = await receiver(() => (down ? 503 : 200));
    await webhook({ id: "ops", url: r.url, events: ["contract.status_changed:failed"] });
    const first = await dispatcher(hub, { ...FAST, retryBaseMs: 60_000 });
    await failed("before-stop");
    await settled("ops", (l) => l[0]?.status === "pending" && l[0].attempts === 1);
    await first.stop();
    await failed("while-stopped");
    down = false;
    // The retry is due in a minute: the restarted hub waits for it, not for a sleep of the test.
    hub.clock.advance(61_000);
    await dispatcher(hub, { ...FAST, retryBaseMs: 60_000 });
    const log = await settled("ops", (l) => l.length === 2 && l.every((d) => d.status === "delivered"));
    expect(log.map((d) => d.attempts).sort()).toEqual([1, 2]);
  });

  it("takes over an attempt its hub was making when it stopped, at that hub's restart", async () => {
    const r = await receiver();
    await webhook({ id: "ops", url: r.url, events: ["contract.status_changed:failed"] });
    const hubA = hubOn(hub, "hub-a");
    closing.push(() => hubA.close());
    // As a hub that died mid-attempt leaves it: claimed by hub-a for a while yet, its first attempt counted.
    await hub.db.write("test.claim", "test", async (tx) => {
      const w = (await tx.get<Pick<WebhookRow, "pk" | "teamId">>(sql`SELECT "pk", "teamId" FROM "Webhook" WHERE "id" = 'ops'`))!;
      const rendered = render({ format: "json", webhook: "ops", team: "t", event: null });
      const until = new Date(tx.now.getTime() + 600_000);
      await insertDelivery(
        tx,
        { webhook: w, kind: "event", eventId: 1, eventType: "team.created", rendered },
        { status: "sending", maxAttempts: 3, claimedBy: "hub-a", claimedUntil: until },
      );
    });
    await dispatcher(hubA);
    const [d] = await settled("ops", (l) => l[0]?.status === "delivered");
    expect(d.attempts).toBe(2);
    expect(r.received).toHaveLength(1);
  });

  // Two connections of one process on one SQLite file wait on each other synchronously (better-sqlite3), so on SQLite
  // this runs with two hub processes instead: the two-hub suite (e2e/helpers/two-hubs.ts, both databases).
  it.runIf(POSTGRES_URL)("delivers each event exactly once when two hubs dispatch from one database", async () => {
    const r = await receiver();
    await webhook({ id: "ops", url: r.url, events: ["contract.status_changed:failed"] });
    const a = hubOn(hub, "hub-a");
    const b = hubOn(hub, "hub-b");
    closing.push(
      () => a.close(),
      () => b.close(),
    );
    const [da, db] = [await dispatcher(a), await dispatcher(b)];
    for (let i = 0; i < 20; i++) await failed(`c${i}`);
    // Both hubs read the log and compete for every delivery (another hub's commits reach a hub's bus through its log feed).
    da.wake(true);
    db.wake(true);
    await settled("ops", (l) => l.length === 20 && l.every((d) => d.status === "delivered"));
    const ids = r.received.map((x) => x.headers["x-teamhub-delivery"]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });
});

describe("the test button", () => {
  const test = (id: string) => testWebhook(hub, OPERATOR, parseOrThrow(WebhookRefInput, { team: "t", id }), FAST);

  it("sends one signed test notification and reports how it went, without retrying", async () => {
    const ok = await receiver();
    const bad = await receiver(() => 500);
    const { secret } = await webhook({ id: "ok", url: ok.url, events: ["session.exited"], enabled: false });
    await webhook({ id: "bad", url: bad.url, events: ["session.exited"] });
    await dispatcher();

    const delivered = await test("ok");
    expect(delivered).toMatchObject({
      webhook: "ok",
      kind: "test",
      eventId: null,
      eventType: "webhook.test",
      status: "delivered",
      attempts: 1,
      maxAttempts: 1,
      responseCode: 200,
    });
    const [req] = ok.received;
    expect(JSON.parse(req.body)).toMatchObject({ webhook: "ok", team: "t", test: true, event: null, title: "[t] Test notification" });
    expect(
      verifySignature(secret, { signature: String(req.headers["x-teamhub-signature"]), timestamp: String(req.headers["x-teamhub-timestamp"]) }, req.body),
    ).toBe(true);

    const failedTest = await test("bad");
    expect(failedTest).toMatchObject({ status: "failed", attempts: 1, responseCode: 500, lastError: "HTTP 500 Internal Server Error", nextAttemptAt: null });
    expect(hub.events.filter((e) => e.type === "webhook.tested").map((e) => e.payload)).toEqual([
      { id: "ok", status: "delivered", responseCode: 200, error: null, by: "operator" },
      { id: "bad", status: "failed", responseCode: 500, error: "HTTP 500 Internal Server Error", by: "operator" },
    ]);
    expect(await deliveries("bad")).toMatchObject([{ kind: "test", status: "failed" }]);
    expect(bad.received).toHaveLength(1);
  });
});
