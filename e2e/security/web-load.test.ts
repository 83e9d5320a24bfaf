/**
 * Web side (docs/security.md#web-side), bounds: one client cannot stall the hub or lock others out. 1,000 MCP initializes
 * from one principal only churn that principal's own sessions (others, opened before or after,
 * keep working); 300 subscribe{since: 0} frames on one /ws are rate limited and the socket is
 * closed, while /api/health stays fast on a hub with thousands of events.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { WS_VERSION } from "../../lib/ws.ts";
import { dbSnapshot } from "../helpers/db-snapshot.ts";
import { api, bearer as bearerOf, pool, startHub, type HubProcess } from "../helpers/hub-process.ts";
import { summarize } from "../../bench/lib/stats.ts";
import { attack } from "./attack.ts";
import { INITIALIZE, mcpPost, mcpSession, openSocket } from "../helpers/web-doors.ts";
import { PER_PRINCIPAL } from "../../server/mcp/http.ts";

let hub: HubProcess;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  hub = await startHub();
  for (const name of ["flooder", "victim"]) tokens[name] = (await api(hub, "POST", "/api/tokens", { name })).body.token;
}, 180_000);
afterAll(async () => hub?.kill());

const bearer = (name: string) => bearerOf(tokens[name]);
const listTools = (session: string, headers: Record<string, string>) =>
  mcpPost(hub, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, { ...headers, "mcp-session-id": session });

const p99 = (samples: number[]) => summarize(Float64Array.from(samples)).p99;

attack(
  "1,000 MCP initializes from one principal lock out no other principal",
  async () => {
    const victimBefore = await mcpSession(hub, tokens.victim);
    const operatorBefore = await mcpSession(hub);
    const first = await mcpSession(hub, tokens.flooder);
    const before = dbSnapshot(hub.dbFile);
    const statuses: number[] = [];
    let last = "";
    await pool(1000, 20, async () => {
      const r = await mcpPost(hub, INITIALIZE, bearer("flooder"));
      statuses.push(r.status);
      if (r.status === 200 && r.session) last = r.session;
    });
    // New sessions are rate limited per principal (a burst, then a steady rate), and capped: past its cap a new one
    // only takes the place of an idle one of the same principal, never of one in use (server/mcp/session-room.ts).
    // The rest is refused with 429 before any server is built for it. The flooder filled its own places, and its
    // newest session works.
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(statuses.filter((st) => st === 200).length).toBeGreaterThanOrEqual(PER_PRINCIPAL - 1);
    expect((await listTools(last, bearer("flooder"))).status).toBe(200);
    expect([200, 404]).toContain((await listTools(first, bearer("flooder"))).status);
    // Others' sessions, opened before the flood, are untouched; new ones open at once.
    expect((await listTools(victimBefore, bearer("victim"))).rpc.result.tools.length).toBeGreaterThan(10);
    expect((await listTools(operatorBefore, {})).status).toBe(200);
    const victimAfter = await mcpSession(hub, tokens.victim);
    expect((await listTools(victimAfter, bearer("victim"))).status).toBe(200);
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
  },
  180_000,
);

attack(
  "300 subscribe{since: 0} frames on one /ws: rate limited, closed with 1008, /api/health p99 < 100 ms",
  async () => {
    await pool(2500, 8, async (i) => {
      const r = await api(hub, "POST", "/api/artifacts?team=load", { id: `a${i}`, type: "custom", data: { i, pad: "p".repeat(200) } });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    });
    const bystander = openSocket(hub);
    await bystander.opened;
    const flood = openSocket(hub);
    await flood.opened;
    await flood.next("hello");
    const before = dbSnapshot(hub.dbFile);

    const latencies: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const t = performance.now();
        expect((await api(hub, "GET", "/api/health")).status).toBe(200);
        latencies.push(performance.now() - t);
      }
    })();
    const frame = JSON.stringify({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: [], since: 0 } });
    for (let i = 0; i < 300 && flood.socket.readyState === flood.socket.OPEN; i++) flood.send(frame);
    const closed = await flood.closed;
    // Keep probing for 200 more answers after the flood: replays already under way must not stall the hub either.
    const after = latencies.length + 200;
    await expect.poll(() => latencies.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(after);
    flooding = false;
    await probe;

    expect(closed).toMatchObject({ code: 1008, reason: "too many subscribes" });
    expect(flood.inbox.filter((m) => m.type === "error" && m.payload.code === "rate_limited").length).toBeGreaterThan(0);
    expect(flood.inbox.filter((m) => m.type === "subscribed").length).toBeLessThanOrEqual(10);
    expect(latencies.length).toBeGreaterThan(10);
    console.log(`[web-load] /api/health during the /ws flood: p99 ${p99(latencies).toFixed(1)} ms over ${latencies.length} requests`);
    expect(p99(latencies)).toBeLessThan(100);
    bystander.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["load"], since: 0 } });
    const [done] = await bystander.next("subscribed");
    expect(done.payload).toMatchObject({ replayed: 2501 });
    bystander.socket.close();
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
  },
  240_000,
);

attack(
  "subscribes superseding each other on one /ws run one at a time: only the newest replay completes",
  async () => {
    const s = openSocket(hub);
    await s.opened;
    await s.next("hello");
    for (let i = 0; i < 5; i++) s.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["load"], since: 0 } });
    s.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["none-such"], since: 0 } });
    // Subscribes run in order, so by the newest one's answer every superseded replay has stopped.
    const [done] = await s.next("subscribed");
    expect(s.inbox.filter((m) => m.type === "subscribed")).toHaveLength(1);
    expect(done.payload).toMatchObject({ teams: ["none-such"], replayed: 0 });
    // Each superseded replay stops at its next page, so together they send less than one whole replay of the
    // 2,500 artifacts' events (how many pages go out first depends on how fast the frames arrive).
    expect(s.inbox.filter((m) => m.type === "event").length).toBeLessThan(2500);
    s.socket.close();
  },
  60_000,
);
