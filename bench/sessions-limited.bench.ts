/**
 * `sessions.limited` (docs/limits.md#the-hold): 20 sessions of one subscriber (CLAUDE_CODE_OAUTH_TOKEN) on a real hub
 * process with the real `claude`, the hub's derived admission limit in force (so most of them hold no process: idle
 * sessions yield their places). Twice in the same run, a message to each of the 20 at once:
 * - **direct**: the account is free; the time from the sends until every turn has started, and until every one is done;
 * - **held**: the fake Messages API answers 429 with the used-up-window headers until a reset a few seconds ahead; the
 *   hub holds the account, and at the reset (plus its margin) releases every held turn itself. The time from the
 *   release until every turn has started again, and until every one is done.
 * The ratio of the two says what a release costs beyond the same burst sent by a person; the peak of concurrent
 * `claude` processes in each says whether the admission limit held. The stagger between held sessions is 0 here, so the
 * release is one burst, the hardest case for admission (by default it is 3 s a session: 57 s more for 20).
 */
import fs from "node:fs";
import path from "node:path";
import { directiveModel } from "../e2e/fake-anthropic/directives.ts";
import type { MessagesRequest } from "../e2e/fake-anthropic/request.ts";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { usedUpWindow } from "../e2e/fake-anthropic/usage-limit.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { api, startHub, type HubProcess } from "../e2e/helpers/hub-process.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check } from "./lib/check.ts";
import { peakProcesses } from "./lib/processes.ts";
import { ms, ratio } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";

const SESSIONS = 20;
const TEAM = "default";
/** Long enough for all 20 messages to be held before it ends. */
const WALL_MS = 15_000;
const MARGIN_MS = 300;
const DONE_WITHIN_MS = 10 * 60_000;

type Listed = { name: string; status: string; interactions: number; lastOutput: string | null; queued: number; problem: string | null };
type Round = { underWayMs: number; doneMs: number; peak: number };

const names = Array.from({ length: SESSIONS }, (_, i) => `held-${i}`);
const sessions = async (hub: HubProcess) => ((await api(hub, "GET", "/api/sessions?limit=500")).body as Listed[]).filter((s) => names.includes(s.name));

/**
 * Whether a session's last answer is to `message`: a turn sent again after the window reset comes after its refused
 * attempt in the CLI's conversation, so the fake API's echo names the message twice.
 */
const answered = (s: Listed, label: string) => s.lastOutput?.startsWith(`pong: ${label} ${s.name}`) === true;

/** Polls every 100 ms until `ready` says yes, failing the run after `withinMs`. */
async function until(what: string, withinMs: number, ready: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await ready())) {
    check(performance.now() - started < withinMs, `${what} within ${ms(withinMs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** When each session's first turn after `since` (ms since the epoch) started, from the hub's `session.turn_started` events. */
async function startsAfter(hub: HubProcess, since: number): Promise<Map<string, number>> {
  const events = (await api(hub, "GET", `/api/events?team=${TEAM}&type=session.turn_started&limit=500`)).body.events as Array<{
    at: string;
    payload: { name: string };
  }>;
  const first = new Map<string, number>();
  for (const e of events) {
    const at = Date.parse(e.at);
    if (at >= since && names.includes(e.payload.name) && at < (first.get(e.payload.name) ?? Infinity)) first.set(e.payload.name, at);
  }
  return first;
}

/**
 * A message to every session at once; `hold` first closes the window until a reset WALL_MS ahead, and waits for every
 * message to be held. Measured from the sends (direct) or from the release (held): every turn started, every one done.
 */
async function round(hub: HubProcess, label: string, wall: { until: number; refused: number }, hold: boolean): Promise<Round> {
  const before = new Map((await sessions(hub)).map((s) => [s.name, s.interactions]));
  const stopPeak = peakProcesses(hub.child.pid!);
  if (hold) wall.until = Date.now() + WALL_MS;
  const sent = Date.now();
  const answers = await Promise.all(names.map((name) => api(hub, "POST", `/api/sessions/${name}/send`, { message: `${label} ${name}` })));
  check(
    answers.every((r) => r.status === 200),
    `every message accepted: ${JSON.stringify(answers.find((r) => r.status !== 200)?.body)}`,
  );
  let from = sent;
  if (hold) {
    // A session with a process holds its turn ("limited until …"); one that yielded its place waits for admission, and
    // the held ones keep their places until the release (their turns are pending, so they do not yield).
    const held = (s: Listed) => s.queued === 1 && (s.problem?.startsWith("limited until") || s.status === "queued");
    await until("every session held", WALL_MS, async () => {
      const list = await sessions(hub);
      return list.every(held) && list.some((s) => s.problem?.startsWith("limited until"));
    });
    check(Date.now() < wall.until, "the hold was in place before the reset");
    const released = async () =>
      ((await api(hub, "GET", "/api/events?hub=true&type=account.released&limit=1")).body.events as Array<{ at: string }>).find(
        (e) => Date.parse(e.at) >= sent,
      );
    await until("the release at the reset", WALL_MS + 60_000, async () => (await released()) !== undefined);
    from = Date.parse((await released())!.at);
    check(from >= wall.until, "released at the reset, not before");
  }
  await until(`all ${SESSIONS} ${label} turns done`, DONE_WITHIN_MS, async () => {
    const list = await sessions(hub);
    return list.length === SESSIONS && list.every((s) => s.interactions > before.get(s.name)! && s.queued === 0 && answered(s, label));
  });
  const doneMs = Date.now() - from;
  const peak = await stopPeak();
  const starts = await startsAfter(hub, from);
  check(starts.size === SESSIONS, `every ${label} turn started after ${new Date(from).toISOString()}: ${starts.size}`);
  return { underWayMs: Math.max(...starts.values()) - from, doneMs, peak };
}

export default async function limited(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const wall = { until: 0, refused: 0 };
  const scripted = directiveModel();
  const fake = await startFakeApi(async (req: MessagesRequest) => {
    if (Date.now() >= wall.until) return scripted(req);
    wall.refused++;
    return usedUpWindow(wall.until);
  });
  try {
    await inTempDir(async (dir) => {
      const work = path.join(dir, "work");
      fs.mkdirSync(work);
      const claude: Record<string, string> = { ...isolatedClaudeVars(fake.url, path.join(dir, "home")), CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-teamhub-bench" };
      delete claude.ANTHROPIC_API_KEY;
      const hub = await startHub(path.join(dir, "data"), {
        CLAUDE_BIN,
        TEAMHUB_CLAUDE_ENV: JSON.stringify(claude),
        TEAMHUB_WORK_DIR: work,
        TEAMHUB_QUIET: "1",
        TEAMHUB_LIMIT_MARGIN_MS: String(MARGIN_MS),
        TEAMHUB_LIMIT_STAGGER_MS: "0",
      });
      try {
        const limit = (await api(hub, "GET", "/api/health")).body.maxLiveSessions as number;
        const spawned = await Promise.all(names.map((name) => api(hub, "POST", "/api/sessions", { name, prompt: `hello ${name}` })));
        check(
          spawned.every((r) => r.status === 201),
          `every spawn accepted: ${JSON.stringify(spawned.find((r) => r.status !== 201)?.body)}`,
        );
        await until(`all ${SESSIONS} first turns done`, DONE_WITHIN_MS, async () => (await sessions(hub)).every((s) => s.queued === 0 && answered(s, "hello")));
        const direct = await round(hub, "direct", wall, false);
        const held = await round(hub, "held", wall, true);
        check(wall.refused <= limit, `the API saw at most one refused turn per live session during the wall (${wall.refused}, limit ${limit})`);
        for (const r of [direct, held]) check(r.peak <= limit, `at most ${limit} claude processes at once, saw ${r.peak}`);
        console.log(
          `sessions.limited: ${SESSIONS} held turns of one account all under way ${ms(held.underWayMs)} after the release vs ${ms(direct.underWayMs)} after the same ${SESSIONS} messages sent with the account free, ratio ${ratio(held.underWayMs, direct.underWayMs)} (released ${MARGIN_MS} ms after the reset, no stagger)`,
        );
        console.log(
          `sessions.limited: all ${SESSIONS} turns done ${ms(held.doneMs)} after the release vs ${ms(direct.doneMs)} after the sends, ratio ${ratio(held.doneMs, direct.doneMs)}; peak concurrent claude processes ${held.peak} vs ${direct.peak} (admission limit ${limit}: held); the API refused ${wall.refused} turn(s) during the wall`,
        );
      } finally {
        await hub.kill();
      }
    });
  } finally {
    await fake.close();
  }
}
