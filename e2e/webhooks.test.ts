/**
 * Webhooks against a real hub (docs/notifications.md): managed with the `teamhub` CLI, HTTP and MCP; a real `claude`
 * session's approval waiting and a failed contract reach a receiver on 127.0.0.1 as signed JSON; the test button
 * reports its outcome; bad input is refused naming the field with nothing written; a delivery waiting for its retry is
 * made by the hub that restarts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../server/domain/notifications/signature.ts";
import { startReceiver, type Received, type Receiver } from "../server/testing/webhook-receiver.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { dbSnapshot, expectDbUnchanged } from "./helpers/db-snapshot.ts";
import { api, cli, cliAsync } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let receiver: Receiver;
/** What the receiver answers; a test switches it to 503 to make deliveries wait for a retry. */
let answer = 200;
let secret = "";

const teamhub = (...args: string[]) => cli(sh.hub.dataDir, [...args, "--team", "t"]);
/** For a command that waits on the receiver, which runs in this process: `cli` would block it until the command ends. */
const teamhubAsync = (...args: string[]) => cliAsync(sh.hub.dataDir, [...args, "--team", "t"]);
const signed = (r: Received) =>
  verifySignature(secret, { signature: String(r.headers["x-teamhub-signature"]), timestamp: String(r.headers["x-teamhub-timestamp"]) }, r.body);
const ofEvent = (type: string) => receiver.received.filter((r) => r.headers["x-teamhub-event"] === type);
const deliveries = async () => (await api(sh.hub, "GET", "/api/webhooks/ops/deliveries?team=t")).body.deliveries as Array<Record<string, any>>;

beforeAll(async () => {
  receiver = await startReceiver(() => answer);
  sh = await startSessionHub(directiveModel(), { TEAMHUB_WEBHOOK_RETRY_MS: "1000", TEAMHUB_WEBHOOK_ATTEMPTS: "4", TEAMHUB_WEBHOOK_TIMEOUT_MS: "3000" });
}, 180_000);
afterAll(async () => {
  await sh?.close();
  await receiver?.close();
});

describe("webhooks on a real hub", () => {
  it("are added with the CLI, the secret printed once and never listed; a test reports its outcome", async () => {
    const added = teamhub("webhook-add", "ops", `${receiver.url}/ops`, "--events", "session.approval_requested,contract.status_changed:failed", "--json");
    expect(added.code, added.stderr).toBe(0);
    secret = added.json().secret;
    expect(secret).toMatch(/^whsec_/);

    const list = teamhub("webhook-list");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ops\s+json\s+enabled\s+http:\/\/127\.0\.0\.1:\d+\/ops\s+session\.approval_requested,contract\.status_changed:failed/m);
    expect(teamhub("webhook-list", "--json").stdout).not.toContain(secret);
    // Not in the event log either, nor in the hub's own output.
    expect(JSON.stringify((await api(sh.hub, "GET", "/api/events?team=t&type=webhook.created")).body)).not.toContain(secret);

    const tested = await teamhubAsync("webhook-test", "ops");
    expect([tested.code, tested.stdout]).toEqual([0, expect.stringMatching(/^test of ops: delivered \(HTTP 200\) in [\d.]+ ms\n$/)]);
    const [test] = ofEvent("webhook.test");
    expect(signed(test)).toBe(true);
    expect(JSON.parse(test.body)).toMatchObject({ webhook: "ops", team: "t", test: true, event: null });
    expect(sh.hub.log()).not.toContain(secret);
  });

  it("delivers a real session's approval waiting and a failed contract as signed JSON, after the change committed", async () => {
    expect((await api(sh.hub, "POST", "/api/sessions", { team: "t", name: "asker", prompt: "@bash touch made-by-asker" })).status).toBe(201);
    const waiting = await waitForSession(sh.hub, "asker", (s) => s.status === "waiting_permission" && s.approvals.length === 1, 60_000);
    expect((await api(sh.hub, "POST", "/api/contracts?team=t", { id: "doomed", title: "Doomed", assignee: "dev" })).status).toBe(201);
    expect((await api(sh.hub, "POST", "/api/contracts/doomed/fail?team=t", { reason: "the tests never passed" })).status).toBe(200);

    await receiver.waitFor(3, { path: "/ops" });
    const [approval] = ofEvent("session.approval_requested");
    const [failed] = ofEvent("contract.status_changed");
    for (const r of [approval, failed]) expect(signed(r)).toBe(true);
    expect(JSON.parse(approval.body)).toMatchObject({
      title: "[t] Approval waiting: asker",
      link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sessions\/asker\?team=t$/),
      event: {
        type: "session.approval_requested",
        payload: { name: "asker", approvalId: waiting.approvals[0].id, toolName: "Bash", input: { command: expect.stringContaining("made-by-asker") } },
      },
    });
    expect(JSON.parse(failed.body).event).toMatchObject({
      type: "contract.status_changed",
      subject: "contract:doomed",
      payload: { to: "failed", reason: "the tests never passed" },
    });
    // Only what the webhook chose: the contract's creation and readiness were not sent.
    expect(receiver.received).toHaveLength(3);

    const log = teamhub("webhook-deliveries", "ops");
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toMatch(/contract\.status_changed #\d+\s+delivered\s+1\/4\s+200/);
    expect(log.stdout).toMatch(/session\.approval_requested #\d+\s+delivered\s+1\/4\s+200/);
  });

  it("refuses bad input on every door, naming the field, with nothing written", async () => {
    const before = dbSnapshot(sh.hub.dbFile);
    const cases: Array<[string[], string]> = [
      [["ftp://files.example.com/x", "--events", "session.exited"], "url: must use http or https, not ftp"],
      [[`https://example.com/${"a".repeat(2100)}`, "--events", "session.exited"], "url: must be at most 2048 characters"],
      [
        ["https://example.com/x", "--events", "session.exited,contract.failed"],
        "events[1]: 'contract.failed' is not an event type of the catalog (docs/events.md); use 'contract.status_changed:failed'",
      ],
    ];
    for (const [args, message] of cases) {
      const r = teamhub("webhook-add", "bad", ...args);
      expect([r.code, r.stderr.trim()]).toEqual([2, `teamhub: invalid_input: ${message}`]);
    }
    const http = await api(sh.hub, "POST", "/api/webhooks?team=t", { id: "bad", url: "file:///etc/passwd", events: ["session.exited"] });
    expect([http.status, http.body.error.code, http.body.error.details.issues[0].field, http.body.error.message]).toEqual([
      400,
      "invalid_input",
      "url",
      "url: must use http or https, not file",
    ]);
    const mcp: Client = await httpClient(sh.hub.url);
    try {
      const r = await call(mcp, "webhook_create", { team: "t", id: "bad", url: "https://example.com/x", events: ["no.such_event"] });
      expect([r.isError, r.text]).toEqual([true, "invalid_input: events[0]: 'no.such_event' is not an event type of the catalog (docs/events.md)"]);
    } finally {
      await mcp.close();
    }
    expect(dbSnapshot(sh.hub.dbFile)).toEqual(before);
  });

  it("makes a delivery that was waiting for its retry from the hub that restarts", async () => {
    answer = 503;
    expect((await api(sh.hub, "POST", "/api/contracts?team=t", { id: "later", title: "Later", assignee: "dev" })).status).toBe(201);
    expect((await api(sh.hub, "POST", "/api/contracts/later/fail?team=t", { reason: "receiver down" })).status).toBe(200);
    await receiver.waitFor(4, { path: "/ops" });
    await sh.hub.kill();
    answer = 200;
    await sh.restart();
    await expect
      .poll(async () => (await deliveries()).find((d) => d.eventType === "contract.status_changed" && d.attempts > 1)?.status, { timeout: 60_000 })
      .toBe("delivered");
    const later = ofEvent("contract.status_changed").filter((r) => JSON.parse(r.body).event.subject === "contract:later");
    expect(later.length).toBeGreaterThanOrEqual(2);
    expect(new Set(later.map((r) => r.headers["x-teamhub-delivery"])).size).toBe(1);
    expect(later.every(signed)).toBe(true);
  }, 120_000);

  it("is switched off and removed with its log", async () => {
    const off = teamhub("webhook-update", "ops", "--disable");
    expect([off.code, off.stdout]).toEqual([0, expect.stringContaining("ops (json, disabled)")]);
    const count = receiver.received.length;
    expect((await api(sh.hub, "POST", "/api/contracts?team=t", { id: "quiet", title: "Quiet", assignee: "dev" })).status).toBe(201);
    expect((await api(sh.hub, "POST", "/api/contracts/quiet/fail?team=t", { reason: "nobody told" })).status).toBe(200);
    const removed = teamhub("webhook-remove", "ops");
    expect([removed.code, removed.stdout]).toEqual([0, "deleted webhook ops\n"]);
    await expectDbUnchanged(sh.hub.dbFile, async () => {
      const list = teamhub("webhook-list", "--json");
      expect(list.json()).toEqual([]);
    });
    expect(receiver.received.length).toBe(count);
  });
});
