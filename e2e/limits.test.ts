/**
 * Usage and rate limits (docs/limits.md) with the real `claude`: a subscriber (CLAUDE_CODE_OAUTH_TOKEN) whose five-hour
 * window is used up for a few seconds — the API answers 429 with the `anthropic-ratelimit-unified-*` headers, and the
 * CLI says "You've hit your session limit". The hub holds every session of the account, sends nothing into the wall,
 * and at the reset sends the held turns itself; across a restart too. A window filling up shows on the overview. An
 * API-key session's 529 that the CLI gave up on is sent again by the hub after retry-after.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MessagesRequest } from "./fake-anthropic/request.ts";
import type { Reply } from "./fake-anthropic/server.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { usedUpWindow } from "./fake-anthropic/usage-limit.ts";
import { api, bearer } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const TEAM = "lim";
const OAUTH = { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-teamhub-test" };

/** The fake API's account: used up until `wall` (ms since the epoch), filling up when `warn` is set. */
const window = { wall: 0, warn: false, refusedDuringWall: 0 };
const scripted = directiveModel();

async function subscriberApi(req: MessagesRequest): Promise<Reply> {
  if (Date.now() < window.wall) {
    window.refusedDuringWall++;
    return usedUpWindow(window.wall);
  }
  const reply = await scripted(req);
  if (!window.warn || "error" in reply || "hang" in reply) return reply;
  const inAnHour = String(Math.ceil(Date.now() / 1000) + 3600);
  return {
    ...reply,
    headers: {
      "anthropic-ratelimit-unified-status": "allowed_warning",
      "anthropic-ratelimit-unified-5h-surpassed-threshold": "0.9",
      "anthropic-ratelimit-unified-5h-utilization": "0.93",
      "anthropic-ratelimit-unified-5h-reset": inAnHour,
    },
  };
}

let sh: SessionHub;
/** Longer than a session's process takes to start, so that a turn sent when its process is up would come too early. */
const STAGGER_MS = 3000;

beforeAll(async () => {
  sh = await startSessionHub(subscriberApi, { TEAMHUB_LIMIT_MARGIN_MS: "300", TEAMHUB_LIMIT_STAGGER_MS: String(STAGGER_MS) }, { credentials: OAUTH });
  expect((await api(sh.hub, "PATCH", `/api/teams/${TEAM}/settings`, { gateEnforcement: "off" })).status).toBe(200);
  for (const name of ["alice", "bob"]) {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name, role: "dev", workDir: sh.work })).status).toBe(201);
    await waitForSession(sh.hub, name, (s) => s.status === "idle", 60_000);
  }
}, 180_000);
afterAll(async () => sh?.close());

/** Hub-wide events of one type, newest first. */
const hubEvents = async (type: string) => (await api(sh.hub, "GET", `/api/events?hub=true&type=${type}&limit=500`)).body.events as any[];
const completed = async (name: string) =>
  ((await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions as any[]).filter((i) => i.status === "completed").length;

/** A team's events of one type, newest first (contract events belong to the team, not to the hub). */
const teamEvents = async (type: string) => (await api(sh.hub, "GET", `/api/events?team=${TEAM}&type=${type}&limit=500`)).body.events as any[];

/** Sends without waiting; the turn's fate is read from the session. */
const send = async (name: string, message: string) => expect((await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message })).status).toBe(200);

/**
 * `restartMidway`: the hub is killed (SIGTERM, its sessions' processes with it) and started again while the hold is on;
 * the wall then lasts long enough for the new hub to be up before the reset.
 */
async function holdsUntilReset({ restartMidway = false } = {}) {
  const done = { alice: await completed("alice"), bob: await completed("bob") };
  window.wall = Date.now() + (restartMidway ? 25_000 : 8000);
  window.refusedDuringWall = 0;
  await send("alice", "@reply alice after the wall");
  const limited = await waitForSession(sh.hub, "alice", (s) => s.problem?.startsWith("limited until"), 30_000);
  expect(limited.problem).toBe(`limited until ${new Date(Math.ceil(window.wall / 1000) * 1000).toISOString().slice(11, 16)} UTC (five-hour window)`);
  const accounts = (await api(sh.hub, "GET", `/api/accounts?team=${TEAM}`)).body;
  expect(accounts).toMatchObject([{ status: "limited", window: "five_hour", held: ["alice"] }]);
  const overview = (await api(sh.hub, "GET", `/api/overview?team=${TEAM}`)).body;
  expect(overview.attention.accounts).toMatchObject([{ status: "limited", held: ["alice"] }]);
  expect(overview.attention.sessionProblems).toEqual([]);

  // Bob is on the same account: his turn is not sent into the known wall.
  const refusedBefore = window.refusedDuringWall;
  await send("bob", "@reply bob after the wall");
  await waitForSession(sh.hub, "bob", (s) => s.problem?.startsWith("limited until") && s.queued === 1, 30_000);
  if (restartMidway) {
    await sh.hub.kill();
    await sh.restart();
    // The new hub has the hold from the database: both sessions came back without a process, their turns still queued.
    expect(Date.now()).toBeLessThan(window.wall);
    expect((await api(sh.hub, "GET", `/api/accounts?team=${TEAM}`)).body).toMatchObject([{ status: "limited", held: ["alice", "bob"] }]);
    for (const name of ["alice", "bob"]) {
      expect((await api(sh.hub, "GET", `/api/sessions/${name}`)).body).toMatchObject({ status: "interrupted", queued: 1 });
    }
  }
  expect(window.refusedDuringWall).toBe(refusedBefore);
  expect(Date.now()).toBeLessThan(window.wall);

  // After the reset both turns complete, nobody resending them.
  await vi.waitFor(
    async () => {
      expect(await completed("alice")).toBe(done.alice + 1);
      expect(await completed("bob")).toBe(done.bob + 1);
    },
    { timeout: 60_000, interval: 200 },
  );
  expect(window.refusedDuringWall).toBe(1);
  const released = (await hubEvents("account.released"))[0];
  expect(released.payload).toMatchObject({ how: "reset", sessions: ["alice", "bob"] });
  // Staggered in the order held, whether the sessions kept their processes or were resumed by the release.
  const lastStart = async (name: string) =>
    Date.parse(((await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions as any[]).at(-1).startedAt);
  const releasedAt = Date.parse(released.at);
  expect(await lastStart("alice")).toBeGreaterThanOrEqual(releasedAt);
  expect(await lastStart("bob")).toBeGreaterThanOrEqual(releasedAt + STAGGER_MS);
  for (const name of ["alice", "bob"]) expect((await api(sh.hub, "GET", `/api/sessions/${name}`)).body.problem).toBeNull();
}

describe("a used-up usage window", () => {
  it("shows allowed_warning on the overview while the window fills up", { timeout: 60_000 }, async () => {
    window.warn = true;
    const before = await completed("alice");
    await send("alice", "@reply nearly full");
    await vi.waitFor(
      async () => {
        const accounts = (await api(sh.hub, "GET", `/api/overview?team=${TEAM}`)).body.attention.accounts;
        expect(accounts).toMatchObject([{ status: "warning", window: "five_hour", utilization: 0.93, held: [] }]);
      },
      { timeout: 30_000, interval: 200 },
    );
    // The warning comes with the answer, before the turn is recorded done: the next case counts turns from here.
    await vi.waitFor(async () => expect(await completed("alice")).toBe(before + 1), { timeout: 30_000, interval: 200 });
    window.warn = false;
    expect((await hubEvents("account.warning")).length).toBe(1);
  });

  it("holds every session of the account, sends nothing while limited, and sends the held turns at the reset", { timeout: 120_000 }, async () => {
    await holdsUntilReset();
  });

  it("does the same across a hub restart in the middle of the window", { timeout: 180_000 }, async () => {
    await holdsUntilReset({ restartMidway: true });
  });

  it("keeps a held assignee's contract from timing out, and moves its deadline by the time held", { timeout: 120_000 }, async () => {
    const done = await completed("alice");
    window.wall = Date.now() + 8000;
    window.refusedDuringWall = 0;
    await send("alice", "@reply alice after the wall");
    await waitForSession(sh.hub, "alice", (s) => s.problem?.startsWith("limited until"), 30_000);
    // Made for alice while she is held: its 2-second clock would run out long before the reset.
    const made = await api(sh.hub, "POST", "/api/contracts", { team: TEAM, id: "held-work", title: "Held work", assignee: "alice", timeoutMs: 2000 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const created = new Date(made.body.createdAt).getTime();
    const deadline = new Date(made.body.deadlineAt).getTime();
    expect(deadline).toBe(created + 2000);
    // Its deadline passes while the hold is on (the scheduler looks every 200 ms): it does not fail.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(deadline + 1000), { timeout: 10_000, interval: 200 });
    expect(Date.now()).toBeLessThan(window.wall);
    expect((await api(sh.hub, "GET", `/api/contracts/held-work?team=${TEAM}`)).body).toMatchObject({ status: "ready", deadlineAt: made.body.deadlineAt });

    await vi.waitFor(async () => expect(await teamEvents("contract.deadline_moved")).toHaveLength(1), { timeout: 60_000, interval: 200 });
    const moved = (await teamEvents("contract.deadline_moved"))[0];
    const released = (await hubEvents("account.released"))[0];
    expect(released.payload).toMatchObject({ how: "reset", sessions: ["alice"] });
    // Held from the contract's start (not the hold's, which began before it) until the release: its 2 seconds are whole again.
    expect(moved.payload).toMatchObject({ id: "held-work", from: made.body.deadlineAt });
    const to = new Date(moved.payload.to).getTime();
    expect(to).toBe(deadline + moved.payload.heldMs);
    expect(to).toBeLessThanOrEqual(new Date(released.at).getTime() + 2000);
    expect(to).toBeGreaterThan(window.wall + 2000);
    // Shown on the contract; it had not failed (a timeout may come after the move, at the new deadline).
    const failed = (await teamEvents("contract.status_changed")).filter((e) => e.payload.id === "held-work" && e.payload.to === "failed");
    expect(failed.every((e) => e.id > moved.id)).toBe(true);
    expect((await api(sh.hub, "GET", `/api/contracts/held-work?team=${TEAM}`)).body.deadlineAt).toBe(moved.payload.to);

    // Alice's turns go at the reset: the one that hit the wall and the contract's wake-up.
    await waitForSession(sh.hub, "alice", (s) => s.status === "idle" && s.queued === 0 && s.problem === null, 60_000);
    expect(await completed("alice")).toBe(done + 2);
    expect(window.refusedDuringWall).toBe(1);
    // Done with it: failed by hand unless its new deadline came first (neither wakes alice).
    const failedByHand = await api(sh.hub, "POST", `/api/contracts/held-work/fail`, { team: TEAM, reason: "the test is over" });
    expect([200, 409], JSON.stringify(failedByHand.body)).toContain(failedByHand.status);
  });

  it("lets a person release a hold early or cancel its turns; a member may not", { timeout: 120_000 }, async () => {
    window.wall = Date.now() + 60_000;
    await send("bob", "@reply early");
    await waitForSession(sh.hub, "bob", (s) => s.problem?.startsWith("limited until"), 30_000);
    const [{ account }] = (await api(sh.hub, "GET", `/api/accounts?team=${TEAM}`)).body;
    const member = (await api(sh.hub, "POST", "/api/tokens", { name: "carol" })).body.token;
    const refused = await api(sh.hub, "POST", `/api/accounts/${account}/release`, {}, bearer(member));
    expect(refused.status).toBe(403);
    expect((await api(sh.hub, "GET", `/api/accounts?team=${TEAM}`)).body).toMatchObject([{ status: "limited" }]);
    const bad = await api(sh.hub, "POST", `/api/accounts/not-an-account/release`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0]).toMatchObject({ field: "account" });

    const cancelled = await api(sh.hub, "POST", `/api/accounts/${account}/release`, { cancel: true });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const history = (await api(sh.hub, "GET", `/api/sessions/bob/history`)).body.interactions as any[];
    expect(history.at(-1)).toMatchObject({ status: "cancelled" });
    expect((await api(sh.hub, "GET", `/api/accounts?team=${TEAM}`)).body).toEqual([]);
    window.wall = 0;
  });
});

describe("an API key's rate limit", () => {
  let keyed: SessionHub;
  let refusals = 0;
  beforeAll(async () => {
    keyed = await startSessionHub(
      async (req) => {
        if (refusals < 2) {
          refusals++;
          return { error: 529, type: "overloaded_error", message: "Overloaded", headers: { "retry-after": "1" } };
        }
        return scripted(req);
      },
      { TEAMHUB_API_RETRY_BASE_MS: "100" },
    );
    expect((await api(keyed.hub, "POST", "/api/sessions", { name: "dave", workDir: keyed.work })).status).toBe(201);
    await waitForSession(keyed.hub, "dave", (s) => s.status === "idle");
  }, 120_000);
  afterAll(async () => keyed?.close());

  it("sends a turn again after retry-after when the CLI gave up on a 529, and it succeeds", { timeout: 120_000 }, async () => {
    const r = await api(keyed.hub, "POST", "/api/sessions/dave/send", { message: "@reply through at last", wait: true, waitTimeoutMs: 60_000 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.interaction).toMatchObject({ status: "completed", response: "through at last" });
    const retries = (await api(keyed.hub, "GET", `/api/events?type=session.turn_retry&limit=50`)).body.events as any[];
    expect(retries).toHaveLength(1);
    expect(retries[0].payload).toMatchObject({ name: "dave", attempt: 1, status: 529 });
    expect(retries[0].payload.delayMs).toBeGreaterThanOrEqual(1000);
  });
});
