/**
 * The admission limit with the real CLI (docs/security.md#admission): with TEAMHUB_MAX_LIVE_SESSIONS=2, spawns
 * beyond two wait as `queued` with their position, never more than two hold a process, and all
 * start in order and finish their first turn; a queued session can be stopped or killed without
 * ever launching, keeps the messages sent to it, shows "queued (#n)" in the dashboard, and keeps
 * its place across a hub restart.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel(), { TEAMHUB_MAX_LIVE_SESSIONS: "2" })));
afterAll(async () => sh?.close());

const HOLDING = ["starting", "idle", "busy", "waiting_permission", "paused"];
const sessions = async (): Promise<any[]> => (await api(sh.hub, "GET", "/api/sessions?limit=500")).body;
const events = async (type: string): Promise<any[]> => (await api(sh.hub, "GET", `/api/events?type=${type}&limit=500`)).body.events.reverse();
const spawn = async (name: string, prompt: string) => {
  const r = await api(sh.hub, "POST", "/api/sessions", { name, prompt });
  expect(r.status).toBe(201);
  return r.body;
};

/** Field 19 of /proc/<pid>/stat, after the command name (which may hold spaces) in parentheses. */
const stat = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
const niceness = (pid: number) => Number(stat(pid)[16]);

/** `pid` and every process below it: in the sandbox, bubblewrap, its init and the CLI. */
function processTree(pid: number): number[] {
  const parents = fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        return [[Number(name), Number(stat(Number(name))[1])] as const];
      } catch {
        return []; // exited meanwhile
      }
    });
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...parents.filter(([, ppid]) => ppid === tree[i]).map(([child]) => child));
  return tree;
}

/** Samples the sessions API until stopped: the most sessions holding a process, and the most live pids, at once. */
function watchLive() {
  let peakHolding = 0;
  let peakPids = 0;
  let on = true;
  const loop = (async () => {
    while (on) {
      const list = await sessions();
      peakHolding = Math.max(peakHolding, list.filter((s) => HOLDING.includes(s.status)).length);
      peakPids = Math.max(peakPids, list.filter((s) => s.pid !== null && fs.existsSync(`/proc/${s.pid}`)).length);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return async () => {
    on = false;
    await loop;
    return { peakHolding, peakPids };
  };
}

/** The dashboard's sessions list and session page both show the state with the position. */
async function showsQueued(name: string, label: string): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${sh.hub.url}/sessions`);
    await expect.poll(() => page.getByTestId(`session-${name}`).innerText(), { timeout: 30_000 }).toContain(label);
    await page.goto(`${sh.hub.url}/sessions/${name}`);
    await expect.poll(() => page.getByTestId("session-status").innerText(), { timeout: 30_000 }).toBe(label);
  } finally {
    await browser.close();
  }
}

describe("admission with TEAMHUB_MAX_LIVE_SESSIONS=2", () => {
  it("six spawns: two run, four wait as queued #1..#4, all start in order and finish their first turn", async () => {
    const stop = watchLive();
    const names = Array.from({ length: 6 }, (_, i) => `adm-${i + 1}`);
    const spawned = [];
    for (const name of names) spawned.push(await spawn(name, `@sleep 400\n@reply first turn of ${name}`));
    expect(spawned.map((s) => [s.status, s.queuePosition])).toEqual([
      ["starting", null],
      ["starting", null],
      ["queued", 1],
      ["queued", 2],
      ["queued", 3],
      ["queued", 4],
    ]);
    const queuedEvents = (await events("session.queued")).filter((e) => names.includes(e.payload.name));
    expect(queuedEvents.map((e) => [e.payload.name, e.payload.position])).toEqual(names.slice(2).map((n, i) => [n, i + 1]));
    expect((await api(sh.hub, "GET", "/api/sessions/adm-4")).body).toMatchObject({ status: "queued", queuePosition: 2, queued: 1 });

    for (const name of names) {
      const s = await waitForSession(sh.hub, name, (x) => x.interactions === 1, 120_000);
      expect(s.lastOutput).toBe(`first turn of ${name}`);
    }
    const { peakHolding, peakPids } = await stop();
    expect(peakHolding).toBe(2);
    expect(peakPids).toBeLessThanOrEqual(2);
    expect(peakPids).toBeGreaterThan(0);
    const admitted = (await events("session.admitted")).map((e) => e.payload.name).filter((n) => names.includes(n));
    expect(admitted).toEqual(names.slice(2));
    // The queue drained because idle sessions with nothing pending gave their place up, resumable.
    const yielded = (await sessions()).filter((s) => names.includes(s.name) && s.exitReason === "admission:yielded");
    expect(yielded.length).toBeGreaterThanOrEqual(4);
    for (const s of yielded) expect(s).toMatchObject({ status: "stopped", pid: null });

    const again = (await api(sh.hub, "POST", `/api/sessions/${yielded[0].name}/send`, { message: "@reply back through the queue", wait: true })).body;
    expect(again).toMatchObject({ completed: true, interaction: { response: "back through the queue" } });
    for (const name of names) await api(sh.hub, "POST", `/api/sessions/${name}/stop`, { wait: true });
  }, 240_000);

  it("a queued session is stopped or killed without launching, keeps messages, and keeps its place across a restart", async () => {
    for (const name of ["hold-1", "hold-2"]) await spawn(name, "@sleep 600000\n@reply never");
    const holders = [];
    for (const name of ["hold-1", "hold-2"]) holders.push(await waitForSession(sh.hub, name, (s) => s.status === "busy"));
    // Sessions run below the hub's priority, so that starting processes do not stall its requests: every process
    // of theirs, the CLI inside the sandbox included, from its start (lowered after spawn, the CLI was often missed).
    for (const s of holders) {
      // "busy" is the hub's view: bubblewrap may not have forked the CLI yet.
      await expect.poll(() => processTree(s.pid).length).toBeGreaterThanOrEqual(2);
      const tree = processTree(s.pid);
      expect(tree.map(niceness)).toEqual(tree.map(() => 10));
      // Each leads a session of its own (field 6: its session id), whose autogroup the kernel weighs against the hub's.
      expect(Number(stat(s.pid)[3])).toBe(s.pid);
      if (fs.existsSync("/proc/self/autogroup")) {
        const autogroups = tree.map((pid) => fs.readFileSync(`/proc/${pid}/autogroup`, "utf8").trim());
        expect(autogroups[0]).toMatch(/ nice 10$/);
        expect(new Set(autogroups).size).toBe(1);
      }
    }
    const q = await Promise.all(["q-stop", "q-kill", "q-keep"].map((n) => spawn(n, `@reply first turn of ${n}`)));
    expect(q.map((s) => [s.status, s.queuePosition])).toEqual([
      ["queued", 1],
      ["queued", 2],
      ["queued", 3],
    ]);

    expect((await api(sh.hub, "POST", "/api/sessions/q-stop/stop", { wait: true })).body).toMatchObject({ status: "stopped", pid: null, queuePosition: null });
    expect((await api(sh.hub, "POST", "/api/sessions/q-kill/kill", { wait: true })).body).toMatchObject({ status: "killed", pid: null });
    expect((await api(sh.hub, "POST", "/api/sessions/q-keep/pause", {})).status).toBe(409);
    const sent = (await api(sh.hub, "POST", "/api/sessions/q-keep/send", { message: "@reply second message, delivered after the start" })).body;
    expect(sent.session).toMatchObject({ status: "queued", queuePosition: 1, queued: 2 });
    await showsQueued("q-keep", "queued (#1)");
    const started = (await events("session.started")).map((e) => e.payload.name);
    expect(started).not.toContain("q-stop");
    expect(started).not.toContain("q-kill");

    await sh.hub.kill("SIGKILL");
    await sh.restart();
    // The busy holders did not survive the restart (interrupted), so q-keep gets a place and runs both turns.
    const keep = await waitForSession(sh.hub, "q-keep", (s) => s.interactions === 2, 120_000);
    expect(keep).toMatchObject({ status: "idle", lastOutput: "second message, delivered after the start" });
    const history = (await api(sh.hub, "GET", "/api/sessions/q-keep/history")).body.interactions;
    expect(history.map((i: any) => [i.status, i.response])).toEqual([
      ["completed", "first turn of q-keep"],
      ["completed", "second message, delivered after the start"],
    ]);
    for (const name of ["hold-1", "hold-2"]) expect((await api(sh.hub, "GET", `/api/sessions/${name}`)).body).toMatchObject({ status: "interrupted" });
    expect((await api(sh.hub, "GET", "/api/sessions/q-stop")).body).toMatchObject({ status: "stopped", interactions: 0 });
  }, 240_000);
});
