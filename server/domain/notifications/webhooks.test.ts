/**
 * Managing webhooks (docs/notifications.md): every change one write with its event, the secret answered once and
 * nowhere else, bad input refused naming the field with nothing written, and only the operator and the team's leads
 * let through.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvent } from "../../../lib/api/events.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { CreateWebhookInput, DeliveriesInput, MAX_WEBHOOK_URL, UpdateWebhookInput, WebhookRefInput } from "../../../lib/api/webhooks.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { grantLead } from "../auth/grants.service.ts";
import { createToken } from "../auth/tokens.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { DEFAULT_WEBHOOK_CONFIG } from "./config.ts";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "./webhooks.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
  for (const name of ["mallory", "lea"]) await createToken(hub, OPERATOR, { name, kind: "member" });
  await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "t", name: "lea" }));
});
afterEach(() => hub.close());

const MALLORY: Principal = { name: "mallory", kind: "member" };
const LEA: Principal = { name: "lea", kind: "member" };
/** A Slack-like URL: its path is the receiver's credential, so it must stay out of events. */
const URL_WITH_TOKEN = "https://hooks.example.com/services/T000/B000/SECRETPATHTOKEN?x=1";

const create = async (raw: Record<string, unknown>, actor = OPERATOR) => createWebhook(hub, actor, parseOrThrow(CreateWebhookInput, { team: "t", ...raw }));
const update = async (raw: Record<string, unknown>, actor = OPERATOR) => updateWebhook(hub, actor, parseOrThrow(UpdateWebhookInput, { team: "t", ...raw }));
const ref = (id: string) => parseOrThrow(WebhookRefInput, { team: "t", id });

describe("webhooks: create, list, update, delete", () => {
  it("answers the secret once; the list, the events and the URL's token in them never show it", async () => {
    const made = await create({ id: "ops", url: URL_WITH_TOKEN, events: ["session.approval_requested", "contract.status_changed:failed"], format: "slack" });
    expect(made).toMatchObject({
      id: "ops",
      format: "slack",
      enabled: true,
      createdBy: "operator",
      deliveries: { pending: 0, delivered: 0, failed: 0 },
      last: null,
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const given = await create({ id: "own", url: "http://127.0.0.1:9/hook", events: ["budget.*"], secret: "s3cr3t-of-my-own-choosing" });
    expect(given.secret).toBe("s3cr3t-of-my-own-choosing");

    const list = await listWebhooks(hub, OPERATOR, { team: "t" });
    expect(list.map((w) => [w.id, w.url, w.events])).toEqual([
      ["ops", URL_WITH_TOKEN, ["session.approval_requested", "contract.status_changed:failed"]],
      ["own", "http://127.0.0.1:9/hook", ["budget.*"]],
    ]);
    const listed = JSON.stringify(list);
    expect(listed).not.toContain(made.secret);
    expect(listed).not.toContain("s3cr3t-of-my-own-choosing");
    expect(listed).not.toContain('"secret"');

    const logged = JSON.stringify(hub.events.filter((e) => e.type.startsWith("webhook.")));
    expect(logged).not.toContain(made.secret);
    expect(logged).not.toContain("SECRETPATHTOKEN");
    expect(hub.events.filter(isEvent("webhook.created")).map((e) => [e.teamId, e.subject, e.payload])).toEqual([
      [
        "t",
        "webhook:ops",
        {
          id: "ops",
          format: "slack",
          events: ["session.approval_requested", "contract.status_changed:failed"],
          enabled: true,
          origin: "https://hooks.example.com",
          by: "operator",
        },
      ],
      ["t", "webhook:own", { id: "own", format: "json", events: ["budget.*"], enabled: true, origin: "http://127.0.0.1:9", by: "operator" }],
    ]);
  });

  it("changes the URL, the events and enabled, each write with its event; delete removes it with its log", async () => {
    await create({ id: "ops", url: "http://127.0.0.1:9/a", events: ["session.approval_requested"] });
    const off = await update({ id: "ops", enabled: false });
    expect(off.enabled).toBe(false);
    const moved = await update({ id: "ops", url: "https://ntfy.example.org/topic-x", events: ["session.exited:failed", "budget.exhausted"], enabled: true });
    expect(moved).toMatchObject({ url: "https://ntfy.example.org/topic-x", events: ["session.exited:failed", "budget.exhausted"], enabled: true });
    expect(hub.events.filter(isEvent("webhook.updated")).map((e) => [e.payload.changed, e.payload.enabled, e.payload.origin])).toEqual([
      [["enabled"], false, "http://127.0.0.1:9"],
      [["url", "events", "enabled"], true, "https://ntfy.example.org"],
    ]);
    expect(await deleteWebhook(hub, OPERATOR, ref("ops"))).toEqual({ deleted: "ops", team: "t" });
    expect(hub.events.filter(isEvent("webhook.deleted")).map((e) => e.payload)).toEqual([{ id: "ops", dropped: 0, by: "operator" }]);
    expect(await listWebhooks(hub, OPERATOR, { team: "t" })).toEqual([]);
    expect((await refusal(deleteWebhook(hub, OPERATOR, ref("ops")))).details).toMatchObject({ field: "id", rule: "exists" });
  });

  it("refuses a second webhook of the same id in the team, and more than a team may have", async () => {
    await create({ id: "ops", url: "http://127.0.0.1:9/a", events: ["session.exited"] });
    expect((await refusedWithoutWriting(hub, () => create({ id: "ops", url: "http://127.0.0.1:9/b", events: ["session.exited"] }))).message).toBe(
      "id: webhook 'ops' already exists in team 't'",
    );
    for (let i = 1; i < 20; i++) await create({ id: `w${i}`, url: "http://127.0.0.1:9/a", events: ["session.exited"] });
    const e = await refusedWithoutWriting(hub, () => create({ id: "one-more", url: "http://127.0.0.1:9/a", events: ["session.exited"] }));
    expect(issues(e)).toEqual([{ field: "team", rule: "max_webhooks", message: "team 't' has 20 webhooks, the most a team may have; delete one first" }]);
  });
});

describe("webhooks: bad input names the field and writes nothing", () => {
  /** Parsed as every door parses it, then created: refused before anything is written. */
  const refused = (raw: Record<string, unknown>) =>
    refusedWithoutWriting(hub, async () => create({ id: "bad", events: ["session.exited"], url: "http://127.0.0.1:9/a", ...raw }));

  it.each([
    ["ftp", "ftp://files.example.com/drop", "must use http or https, not ftp"],
    ["file", "file:///etc/passwd", "must use http or https, not file"],
    ["javascript", "javascript:alert(1)", "must use http or https, not javascript"],
    ["relative", "/relative/path", "must be an absolute http:// or https:// URL"],
    ["with a password", "https://user:pw@example.com/hook", "must not carry a user name or password; put a token in the path or query, as Slack and ntfy do"],
    ["too long", `https://example.com/${"a".repeat(MAX_WEBHOOK_URL)}`, `must be at most ${MAX_WEBHOOK_URL} characters`],
  ])("url: %s", async (_, url, message) => {
    const e = await refused({ url });
    expect(e.code).toBe("invalid_input");
    expect(issues(e)).toMatchObject([{ field: "url", message }]);
    expect(e.message).toBe(`url: ${message}`);
  });

  it.each([
    ["contract.failed", "'contract.failed' is not an event type of the catalog (docs/events.md); use 'contract.status_changed:failed'"],
    ["session.exploded", "'session.exploded' is not an event type of the catalog (docs/events.md)"],
    ["nothing.*", "'nothing.*' matches no event type of the catalog (docs/events.md)"],
    ["contract.status_changed:exploded", "'exploded' is not a value of contract.status_changed's to: one of pending, ready, in_progress, completed, failed"],
    [
      "artifact.published:x",
      "'artifact.published' takes no ':' qualifier (only contract.status_changed, session.status_changed, session.exited, session.turn_completed do)",
    ],
  ])("event %s", async (event, message) => {
    const e = await refused({ events: ["session.exited", event] });
    expect(issues(e)).toMatchObject([{ field: "events[1]", message }]);
  });

  it("an empty event list, an unknown format, a short secret (never repeated back)", async () => {
    expect(issues(await refused({ events: [] }))).toMatchObject([{ field: "events", message: "must name at least one event type" }]);
    expect(issues(await refused({ format: "teams" }))).toMatchObject([{ field: "format", message: "must be one of json, slack, ntfy" }]);
    const short = await refused({ secret: "tooshort" });
    expect(issues(short)).toEqual([{ field: "secret", rule: "custom", message: "must be at least 16 characters", received: "(hidden)" }]);
    expect(JSON.stringify(short.details)).not.toContain("tooshort");
  });

  it("an update without any change, or to a bad URL, writes nothing", async () => {
    await create({ id: "ops", url: "http://127.0.0.1:9/a", events: ["session.exited"] });
    const before = await snapshotTables(hub);
    expect(issues(await refusal(update({ id: "ops" })))).toMatchObject([{ field: "url", message: "give at least one change: url, events or enabled" }]);
    expect(issues(await refusal(update({ id: "ops", url: "gopher://x" })))).toMatchObject([{ field: "url", message: "must use http or https, not gopher" }]);
    expect(await snapshotTables(hub)).toEqual(before);
  });
});

describe("webhooks: the operator and the team's leads only", () => {
  it("a member may not create, list, change, delete, test or read the deliveries of a webhook; nothing changes", async () => {
    await create({ id: "ops", url: "http://127.0.0.1:9/a", events: ["session.exited"] });
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ["webhook.create", () => create({ id: "evil", url: "https://attacker.example/x", events: ["message.sent"] }, MALLORY)],
      ["webhook.list", () => listWebhooks(hub, MALLORY, { team: "t" })],
      ["webhook.update", () => update({ id: "ops", url: "https://attacker.example/x" }, MALLORY)],
      ["webhook.update", () => update({ id: "ops", enabled: false }, MALLORY)],
      ["webhook.delete", () => deleteWebhook(hub, MALLORY, ref("ops"))],
      ["webhook.test", () => testWebhook(hub, MALLORY, ref("ops"), DEFAULT_WEBHOOK_CONFIG)],
      ["webhook.deliveries", () => listDeliveries(hub, MALLORY, parseOrThrow(DeliveriesInput, { team: "t", id: "ops" }))],
    ];
    for (const [operation, call] of attempts) {
      const e = await refusedWithoutWriting(hub, call);
      expect([e.code, e.details.operation, e.details.principal]).toEqual(["forbidden", operation, "mallory"]);
    }
    // A webhook that does not exist is refused the same way: the refusal says nothing about what exists.
    expect((await refusedWithoutWriting(hub, () => deleteWebhook(hub, MALLORY, ref("nope")))).code).toBe("forbidden");
  });

  it("a lead manages its own team's webhooks only, and never points one at hub-wide events", async () => {
    const made = await create({ id: "lead-hook", url: "http://127.0.0.1:9/a", events: ["session.approval_requested"] }, LEA);
    expect(made.createdBy).toBe("lea");
    expect((await listWebhooks(hub, LEA, { team: "t" })).map((w) => w.id)).toEqual(["lead-hook"]);
    expect((await update({ id: "lead-hook", enabled: false }, LEA)).enabled).toBe(false);
    const other = await refusedWithoutWriting(hub, () =>
      createWebhook(hub, LEA, parseOrThrow(CreateWebhookInput, { team: "u", id: "x", url: "http://127.0.0.1:9/a", events: ["session.exited"] })),
    );
    expect(other.details).toMatchObject({ operation: "webhook.create", team: "u" });
    const hubWide = await refusedWithoutWriting(hub, () => create({ id: "limits", url: "http://127.0.0.1:9/a", events: ["account.*"] }, LEA));
    expect([hubWide.details.operation, hubWide.message]).toEqual([
      "webhook.hub_events",
      "'lea' (member) may not send hub-wide events to webhook 'limits' (account.*): only the operator may",
    ]);
    // The operator's webhook on hub-wide events: a lead may switch it off, not send it elsewhere.
    await create({ id: "op-limits", url: "http://127.0.0.1:9/a", events: ["account.*", "session.approval_requested"] });
    expect((await update({ id: "op-limits", enabled: false }, LEA)).enabled).toBe(false);
    expect((await refusedWithoutWriting(hub, () => update({ id: "op-limits", url: "https://lea.example/x" }, LEA))).details.operation).toBe(
      "webhook.hub_events",
    );
    expect((await update({ id: "op-limits", events: ["session.approval_requested"] }, LEA)).events).toEqual(["session.approval_requested"]);
    expect((await deleteWebhook(hub, LEA, ref("lead-hook"))).deleted).toBe("lead-hook");
  });
});
