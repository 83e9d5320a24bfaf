/**
 * Web side (docs/security.md#capabilities): read visibility and revocation on the live doors: a member's /ws never carries
 * another member's DMs or the hub-wide token events (live or replayed), and revoking a token
 * closes its open /ws sockets (1008) and MCP sessions at once.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { WS_VERSION } from "../../lib/ws.ts";
import { dbSnapshot } from "../helpers/db-snapshot.ts";
import { api, bearer, startHub, type HubProcess } from "../helpers/hub-process.ts";
import { attack } from "./attack.ts";
import { mcpPost, mcpSession, openSocket, type Socket } from "../helpers/web-doors.ts";

let hub: HubProcess;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  hub = await startHub();
  for (const name of ["alice", "bob", "carol"]) {
    tokens[name] = (await api(hub, "POST", "/api/tokens", { name })).body.token;
    expect((await api(hub, "POST", "/api/roster", { name, role: "dev" })).status).toBe(200);
  }
});
afterAll(async () => hub?.kill());

const as = (name: string) => bearer(tokens[name]);
const subscribe = (s: Socket, payload: Record<string, unknown> = {}) =>
  s.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: [], ...payload } });
const eventTypes = (s: Socket) => s.inbox.flatMap((m) => (m.type === "event" ? [`${m.payload.type} ${JSON.stringify(m.payload.payload)}`] : []));

async function subscribed(token: string, payload: Record<string, unknown> = {}) {
  const s = openSocket(hub, { token });
  expect((await s.opened).status).toBe(101);
  await s.next("hello");
  subscribe(s, payload);
  await s.next("subscribed");
  return s;
}

/** A broadcast every member may see: once it arrives, everything sent before it has been delivered or withheld. */
async function marker(s: Socket, text: string) {
  expect((await api(hub, "POST", "/api/chat/broadcast", { message: text })).status).toBe(200);
  await vi.waitFor(
    () => {
      if (!eventTypes(s).some((e) => e.includes(text))) throw new Error(`marker ${text} never arrived: ${eventTypes(s).join("\n")}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

it("delivers a member's own DMs and broadcasts to its /ws (so the refusals below are filtering)", async () => {
  const bob = await subscribed(tokens.bob);
  expect((await api(hub, "POST", "/api/chat/send", { to: "bob", message: "for bob only" }, as("alice"))).status).toBe(200);
  await marker(bob, "marker-own");
  expect(eventTypes(bob).some((e) => e.includes("for bob only"))).toBe(true);
  bob.socket.close();
});

attack("a member's /ws does not receive another member's DM live", async () => {
  const carol = await subscribed(tokens.carol);
  expect((await api(hub, "POST", "/api/chat/send", { to: "bob", message: "secret plan A" }, as("alice"))).status).toBe(200);
  await marker(carol, "marker-live");
  expect(eventTypes(carol).filter((e) => e.includes("secret plan"))).toEqual([]);
  carol.socket.close();
});

attack("a member's /ws replay (since: 0) holds no other member's DMs, asks or replies", async () => {
  expect((await api(hub, "POST", "/api/chat/send", { to: "bob", message: "secret plan B" }, as("alice"))).status).toBe(200);
  const carol = await subscribed(tokens.carol, { since: 0 });
  await marker(carol, "marker-replay");
  const addressed = carol.inbox.flatMap((m) =>
    m.type === "event" && m.payload.type === "message.sent" && ["dm", "ask", "reply"].includes(String(m.payload.payload.kind)) ? [m.payload.payload] : [],
  );
  expect(addressed.filter((p) => p.to !== "carol" && p.from !== "carol")).toEqual([]);
  expect(eventTypes(carol).filter((e) => e.includes("secret plan"))).toEqual([]);
  carol.socket.close();
});

attack("a member's /ws receives no hub-wide token events, live or replayed", async () => {
  const carol = await subscribed(tokens.carol, { since: 0 });
  expect((await api(hub, "POST", "/api/tokens", { name: "dave", label: "laptop" })).status).toBe(201);
  await marker(carol, "marker-tokens");
  expect(carol.inbox.filter((m) => m.type === "event" && (m.payload.teamId === null || m.payload.type.startsWith("token.")))).toEqual([]);
  carol.socket.close();
});

attack("a revoked member token's open /ws is closed at once with 1008, and cannot reconnect", async () => {
  tokens.mallory = (await api(hub, "POST", "/api/tokens", { name: "mallory" })).body.token;
  const s = await subscribed(tokens.mallory);
  expect((await api(hub, "DELETE", "/api/tokens/mallory")).body).toEqual({ revoked: 1 });
  expect(await s.closed).toEqual({ code: 1008, reason: "token revoked" });
  const before = dbSnapshot(hub.dbFile);
  const again = openSocket(hub, { token: tokens.mallory });
  expect(await again.opened).toMatchObject({ status: 401 });
  expect(dbSnapshot(hub.dbFile)).toEqual(before);
});

attack("a revoked token's MCP session is closed: the same session id is gone even with a fresh token", async () => {
  tokens.eve = (await api(hub, "POST", "/api/tokens", { name: "eve", label: "old" })).body.token;
  const session = await mcpSession(hub, tokens.eve);
  const list = (token: string) => mcpPost(hub, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, { ...bearer(token), "mcp-session-id": session });
  expect((await list(tokens.eve)).status).toBe(200);
  expect((await api(hub, "DELETE", "/api/tokens/eve")).body).toEqual({ revoked: 1 });
  const before = dbSnapshot(hub.dbFile);
  expect((await list(tokens.eve)).status).toBe(401);
  const fresh = (await api(hub, "POST", "/api/tokens", { name: "eve", label: "new" })).body.token as string;
  expect((await list(fresh)).status).toBe(404);
  const publish = await mcpPost(
    hub,
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "artifact_publish", arguments: { id: "x", type: "custom", data: {} } } },
    { ...bearer(tokens.eve), "mcp-session-id": session },
  );
  expect(publish.status).toBe(401);
  expect(dbSnapshot(hub.dbFile).Artifact).toEqual(before.Artifact);
});

it("revoking one label closes only that token's /ws; the principal's other token stays connected", async () => {
  const laptop = (await api(hub, "POST", "/api/tokens", { name: "frank", label: "laptop" })).body.token as string;
  const phone = (await api(hub, "POST", "/api/tokens", { name: "frank", label: "phone" })).body.token as string;
  const a = await subscribed(laptop);
  const b = await subscribed(phone);
  expect((await api(hub, "DELETE", "/api/tokens/frank", { label: "laptop" })).body).toEqual({ revoked: 1 });
  expect(await a.closed).toMatchObject({ code: 1008 });
  b.send({ v: WS_VERSION, type: "ping" });
  await b.next("pong");
  expect(b.socket.readyState).toBe(b.socket.OPEN);
  b.socket.close();
});
