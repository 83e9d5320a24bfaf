/**
 * Bounded load (docs/security.md#admission): against one real hub with the real CLI, while one client
 * sends 300 `/ws` subscribe {since: 0} frames over a log of a few thousand events, another sends
 * 1,000 MCP initialize POSTs as one member, and 50 spawns with a first prompt are requested at
 * once, `/api/health` keeps a p99 under 100 ms, a supervised session's MCP calls succeed, spawns
 * beyond the admission limit are `queued`, and all 50 first turns complete.
 */
import { Worker } from "node:worker_threads";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { summarize } from "../../bench/lib/stats.ts";
import { api, bearer, pool } from "../helpers/hub-process.ts";
import { startSessionHub, type SessionHub } from "../helpers/session-hub.ts";
import { INITIALIZE } from "../helpers/web-doors.ts";

const SEED_EVENTS = 3000;
const SUBSCRIBES = 300;
const INITIALIZES = 1000;
const SPAWNS = 50;
const HEALTH_EVERY_MS = 20;

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel())));
afterAll(async () => sh?.close());

/**
 * Every request on its own connection: a pooled keep-alive socket that the hub closes as idle
 * just as the next request goes out is reset, which would be the client's race, not the hub's.
 */
const call = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => api(sh.hub, method, route, body, headers, false);

/**
 * /api/health every HEALTH_EVERY_MS until stopped, from e2e/helpers/health-probe.mjs in a worker thread: a
 * monitoring client as one is run in practice (one kept-alive connection, one request at a time), whose
 * timings are not delayed by this process generating the load.
 */
function sampleHealth() {
  const probe = new Worker(new URL("../helpers/health-probe.mjs", import.meta.url), { workerData: { url: sh.hub.url, everyMs: HEALTH_EVERY_MS } });
  return async () => {
    const done = new Promise<{ latencies: number[]; failures: string[] }>((resolve) => probe.once("message", resolve));
    probe.postMessage("stop");
    const { latencies, failures } = await done;
    await probe.terminate();
    const { count, p50, p99 } = summarize(Float64Array.from(latencies));
    return { count, p50, p99, max: latencies.reduce((a, b) => Math.max(a, b), -Infinity), failures };
  };
}

/** One /ws connection that sends every subscribe frame at once, as a hostile client would. */
async function subscribeFlood(): Promise<number> {
  const socket = new WebSocket(`${sh.hub.url.replace(/^http/, "ws")}/ws`);
  await new Promise<void>((resolve, reject) => (socket.once("open", () => resolve()), socket.once("error", reject)));
  let frames = 0;
  socket.on("message", () => frames++);
  socket.on("error", () => undefined);
  // Connected until the hub drops this client for flooding (as it should) or, failing that, a minute has passed.
  const dropped = new Promise<void>((resolve) => {
    const timer = setTimeout(() => (socket.close(), resolve()), 60_000);
    socket.once("close", () => (clearTimeout(timer), resolve()));
  });
  const frame = JSON.stringify({ v: 1, type: "subscribe", team: null, payload: { teams: [], since: 0 } });
  for (let i = 0; i < SUBSCRIBES; i++) socket.send(frame);
  await dropped;
  return frames;
}

function initializeFlood(token: string, count = INITIALIZES): Promise<number[]> {
  const headers = { ...bearer(token), accept: "application/json, text/event-stream" };
  // Status 0: the hub dropped the connection, which it may do to a client this abusive.
  return pool(count, 20, async () => (await call("POST", "/mcp", INITIALIZE, headers).catch(() => ({ status: 0 }))).status);
}

function allFirstTurnsDone(names: string[], timeoutMs: number): Promise<any[]> {
  return vi.waitFor(
    async () => {
      const mine = ((await call("GET", "/api/sessions?team=load&limit=500")).body as any[]).filter((s) => names.includes(s.name));
      const waiting = mine.filter((s) => s.interactions < 1);
      if (mine.length < names.length || waiting.length) {
        throw new Error(`first turns not all done: ${JSON.stringify(waiting.map((s) => [s.name, s.status, s.queuePosition]))}`);
      }
      return mine;
    },
    { timeout: timeoutMs, interval: 250 },
  );
}

describe("load: subscribe flood, initialize flood and 50 spawns at once", () => {
  it("keeps /api/health p99 < 100 ms, a session's MCP calls working, extra spawns queued, and completes every first turn", async () => {
    expect((await call("POST", "/api/roster", { team: "seed", name: "listener" })).status).toBe(200);
    await pool(SEED_EVENTS, 16, async (i) => expect((await call("POST", "/api/chat/broadcast", { team: "seed", message: `seed ${i}` })).status).toBe(200));
    const member = (await call("POST", "/api/tokens", { name: "loader", kind: "member" })).body.token as string;
    const limit = (await call("GET", "/api/health")).body.maxLiveSessions as number;
    expect(limit).toBeGreaterThanOrEqual(2);

    // The measurement is of a hub in use: the routes the load reaches are loaded before it starts.
    for (const route of ["/api/sessions?team=load", "/api/delegate", "/api/sessions/load-0"]) expect((await call("GET", route)).status).toBeLessThan(500);
    expect((await initializeFlood(member, 1))[0]).toBe(200);
    const health = sampleHealth();
    const names = Array.from({ length: SPAWNS }, (_, i) => `load-${i}`);
    const [frames, initStatuses, delegated, spawned] = await Promise.all([
      subscribeFlood(),
      initializeFlood(member),
      call("POST", "/api/delegate", { team: "load", name: "mcp-user", task: '@mcp artifact_list {"team":"load"}', timeout: 240_000 }),
      Promise.all(names.map((name) => call("POST", "/api/sessions", { team: "load", name, prompt: `@reply first turn of ${name}` }))),
    ]);
    const done = await allFirstTurnsDone(names, 300_000);
    const h = await health();
    console.log(
      `load: /api/health ${h.count} samples p50 ${h.p50.toFixed(1)} ms p99 ${h.p99.toFixed(1)} ms max ${h.max.toFixed(1)} ms; ws frames back ${frames}; limit ${limit}`,
    );

    expect(spawned.map((r) => r.status)).toEqual(names.map(() => 201));
    const starting = spawned.filter((r) => r.body.status === "starting");
    const queued = spawned.filter((r) => r.body.status === "queued");
    expect(starting.length + queued.length).toBe(SPAWNS);
    expect(starting.length).toBeLessThanOrEqual(limit);
    expect(queued.length).toBeGreaterThanOrEqual(SPAWNS - limit);
    for (const r of queued) expect(r.body.queuePosition).toBeGreaterThanOrEqual(1);
    for (const s of done) expect(s.lastOutput).toBe(`first turn of ${s.name}`);

    expect(delegated.status).toBe(200);
    expect(delegated.body).toMatchObject({ status: "completed", toolsUsed: ["mcp__teamhub__artifact_list"] });
    expect(delegated.body.response).toMatch(/^mcp__teamhub__artifact_list: /);
    expect(delegated.body.response).not.toContain("ERROR");

    expect(initStatuses.length).toBe(INITIALIZES);
    expect(h.failures).toEqual([]);
    expect(h.p99).toBeLessThan(100);
  }, 600_000);
});
