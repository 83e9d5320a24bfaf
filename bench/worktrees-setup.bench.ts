/**
 * `worktrees.setup`: time to a runnable work tree (docs/worktrees.md#runnable-work-trees). Through a real hub process
 * (`teamhub start`, the real `claude` against the fake Messages API, no admission limit): from the spawn of a
 * work-tree session of a repository whose teamhub.json setup is `npm ci --offline` of 200 packages (tarballs
 * committed in the repository) until `worktree.setup_finished` says it succeeded — the hub's git work tree, its
 * `.worktreeinclude` copy, and setup in the session's sandbox with its output stored. Against the same steps by hand
 * in the same run: `git worktree add`, a copy of the listed file, the same `npm ci` with a fresh HOME as setup has.
 * ROUNDS alternating rounds after one warm-up of each, the median round's ratio reported (target ≤ 1.1×).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { api, startHub, type HubProcess } from "../e2e/helpers/hub-process.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check } from "./lib/check.ts";
import { medianRound, ms, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { eventStream, type EventStream } from "./sessions/events.ts";
import { checkRunnable, INCLUDED, PACKAGES, plantNpmRepo, SETUP, setupEnv } from "./worktrees/npm-repo.ts";

/**
 * On a shared two-core machine the same `npm ci` took 6 s in one round and 26 s in another, so a single round says little:
 * seven, alternating which side goes first. The line also gives the median round's parts, the hub's beside the hand's.
 */
const ROUNDS = 7;
const MAX_RATIO = 1.1;
const SETUP_WITHIN_MS = 600_000;

/** The hub's time and its parts: the spawn's answer (git work tree and copy included), setup's start, setup's own run as the hub timed it. */
type HubRun = { ms: number; answered: number; setupStarted: number; setupRan: number; sandbox: string };
type HandRun = { ms: number; worktree: number; copy: number; install: number };
type Round = { hub: HubRun; hand: HandRun };

/** Runs a command to its end, its output read as a terminal would; a failure throws with the output. */
function run(bin: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv | undefined, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(" ")} exited ${code}:\n${output}`))));
  });
}

async function viaHub(hub: HubProcess, events: EventStream, name: string): Promise<HubRun> {
  const arrival = <T>(p: Promise<T>) => p.then((value) => ({ value, at: performance.now() }));
  const started = arrival(events.next((e) => e.type === "worktree.setup_started" && e.payload.name === name, SETUP_WITHIN_MS));
  const finished = arrival(events.next((e) => e.type === "worktree.setup_finished" && e.payload.name === name, SETUP_WITHIN_MS));
  const launched = events.next((e) => e.type === "session.started" && e.payload.name === name, SETUP_WITHIN_MS);
  const t0 = performance.now();
  const res = await api(hub, "POST", "/api/sessions", { name, isolation: "worktree" });
  const answered = performance.now() - t0;
  check(res.status === 201, `spawn ${name}: ${JSON.stringify(res.body)}`);
  const done = await finished;
  const outcome = done.value.payload as { status: string; durationMs: number };
  check(outcome.status === "succeeded", `${name}'s setup succeeded: ${JSON.stringify(outcome)}`);
  const setupStarted = (await started).at - t0;
  // The session's claude starts after setup; it is stopped before the next run so it takes no CPU from it.
  const { sandbox } = (await launched).payload as { sandbox: string };
  const stopped = await api(hub, "POST", `/api/sessions/${name}/stop`, {});
  check(stopped.status === 200, `stop ${name}: ${JSON.stringify(stopped.body)}`);
  const state = (await api(hub, "GET", `/api/sessions/${name}/runnable`)).body;
  check(state.setup?.status === "succeeded", `${name}'s runnable state says setup succeeded: ${JSON.stringify(state)}`);
  const problem = checkRunnable(res.body.worktree.path);
  check(problem === null, `${name}'s work tree is runnable: ${problem}`);
  return { ms: done.at - t0, answered, setupStarted, setupRan: outcome.durationMs, sandbox };
}

async function byHand(repo: string, commit: string, dir: string, n: number): Promise<HandRun> {
  const tree = path.join(dir, "by-hand", String(n));
  const home = path.join(dir, "by-hand-homes", String(n));
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const t0 = performance.now();
  await run("git", ["-C", repo, "worktree", "add", "-q", "-b", `by-hand/${n}`, tree, commit]);
  const t1 = performance.now();
  for (const name of Object.keys(INCLUDED)) fs.copyFileSync(path.join(repo, name), path.join(tree, name));
  const t2 = performance.now();
  await run("sh", ["-c", SETUP], { cwd: tree, env: setupEnv(home) });
  const t3 = performance.now();
  const problem = checkRunnable(tree);
  check(problem === null, `the work tree made by hand is runnable: ${problem}`);
  return { ms: t3 - t0, worktree: t1 - t0, copy: t2 - t1, install: t3 - t2 };
}

export default async function worktreesSetup(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const fake = await startFakeApi(() => ({ text: "pong" }));
  try {
    await inTempDir(async (dir) => {
      const repo = path.join(dir, "repo");
      const commit = plantNpmRepo(repo);
      const hub = await startHub(path.join(dir, "data"), {
        CLAUDE_BIN,
        TEAMHUB_CLAUDE_ENV: JSON.stringify(isolatedClaudeVars(fake.url, path.join(dir, "claude-home"))),
        TEAMHUB_WORK_DIR: repo,
        TEAMHUB_QUIET: "1",
        TEAMHUB_MAX_LIVE_SESSIONS: "0",
      });
      const events = await eventStream(hub.url);
      try {
        const rounds: Round[] = [];
        // Alternating which goes first, after one warm-up of each, so caches and load touch both alike.
        for (let i = -1; i < ROUNDS; i++) {
          const n = i + 1;
          let hub1!: HubRun;
          let hand!: HandRun;
          if (i % 2 === 0) {
            hub1 = await viaHub(hub, events, `setup-${n}`);
            hand = await byHand(repo, commit, dir, n);
          } else {
            hand = await byHand(repo, commit, dir, n);
            hub1 = await viaHub(hub, events, `setup-${n}`);
          }
          if (i >= 0) rounds.push({ hub: hub1, hand });
        }
        const { ratio, each, round } = medianRound(rounds, (r) => r.hub.ms / r.hand.ms);
        const { hub: h, hand } = round;
        console.log(
          `worktrees.setup: spawn of a work-tree session until its setup (${SETUP}, ${PACKAGES} packages from tarballs in the repository) succeeded ` +
            `${ms(h.ms)} vs the same by hand (git worktree add, cp ${Object.keys(INCLUDED).join(" ")}, ${SETUP}) ${ms(hand.ms)}; ` +
            `ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO)} ` +
            `(the median of ${ROUNDS} rounds: ${each.map((x) => `${x.toFixed(2)}x`).join(", ")}; ` +
            `hub: spawn answered ${ms(h.answered)}, setup started ${ms(h.setupStarted)}, setup ran ${ms(h.setupRan)} in sandbox ${h.sandbox}; ` +
            `by hand: git ${ms(hand.worktree)}, copy ${ms(hand.copy)}, npm ci ${ms(hand.install)})`,
        );
      } finally {
        events.close();
        await hub.kill();
      }
    });
  } finally {
    await fake.close();
  }
}
