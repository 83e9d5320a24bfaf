/**
 * The hub's memory with 20 live sessions working for three minutes (`sessions.soak`): the real `teamhub start` in a
 * process of its own, so the figure is the hub's RSS and nothing of the bench's, its sessions the pinned `claude`
 * against the fake Messages API. What a live session holds is the RSS with 20 idle sessions less the RSS at rest,
 * per session. The soak's last minute against its first shows growth; heap snapshots told it apart from a leak
 * (docs/performance.md#memory). After the soak the idle hub must stay flat.
 * `TEAMHUB_SOAK_SECONDS` shortens the soak for a quick look (default 180).
 */
import fs from "node:fs";
import path from "node:path";
import { ensureCompiled } from "../scripts/compile-dist.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { startHub } from "../e2e/helpers/hub-process.ts";
import { check, post } from "./lib/check.ts";
import { every } from "./lib/processes.ts";
import { mb, median, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { eventStream } from "./sessions/events.ts";
import { MAX_COST_USD } from "../lib/api/sessions.ts";

const SESSIONS = 20;
const SOAK_MS = Number(process.env.TEAMHUB_SOAK_SECONDS ?? 180) * 1000;
const MAX_RSS_MB = 350;
/** Flat after the soak: the idle hub's RSS grows by no more than this over its 20 s. */
const MAX_IDLE_GROWTH = 1.02;
/** A reply long enough that transcripts and their feeds carry real text (about 2 KB a turn). */
const REPLY = "The work is done. ".repeat(110).trim();

/** The resident set of one process, from /proc (bytes). */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  check(kb !== null, `VmRSS of process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** A window of the given length, for samples of a hub left alone. */
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** RSS samples taken once a second while `during` runs. */
async function sampled(pid: number, during: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  const stop = every(1000, () => void samples.push(rssOf(pid)));
  try {
    await during();
  } finally {
    await stop();
  }
  return samples;
}

export default async function soak(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  ensureCompiled();
  const fake = await startFakeApi(() => ({ text: REPLY }));
  try {
    await inTempDir(async (dir) => {
      const work = path.join(dir, "work");
      fs.mkdirSync(work);
      const claude = isolatedClaudeVars(fake.url, path.join(dir, "home"));
      // The scheduler at its default period, not the tests' faster one; room for all 20 to stay live (the default
      // admission on this machine would make idle ones yield their process to queued turns).
      const hub = await startHub(path.join(dir, "data"), {
        TEAMHUB_MAX_LIVE_SESSIONS: String(SESSIONS),
        CLAUDE_BIN,
        TEAMHUB_CLAUDE_ENV: JSON.stringify(claude),
        TEAMHUB_WORK_DIR: work,
        TEAMHUB_SCHEDULER_INTERVAL_MS: "200",
      });
      const pid = hub.child.pid!;
      const events = await eventStream(hub.url);
      try {
        // At rest, after the dashboard's server and the API have answered once (what a user's first look loads).
        for (const route of ["/", "/api/overview?team=default", "/api/sessions?team=default"]) check((await fetch(`${hub.url}${route}`)).ok, `GET ${route}`);
        const rest = median(await sampled(pid, () => pause(5000)));

        const names = Array.from({ length: SESSIONS }, (_, i) => `soak-${i}`);
        const firstTurns = names.map((name) => events.next((e) => e.type === "session.turn_completed" && e.payload.name === name, 120_000));
        // A soak outlasts the default per-session turn and cost limits, which are not what it measures.
        const safety = { maxTurns: 10_000, maxCostUsd: MAX_COST_USD };
        await Promise.all(names.map((name) => post(`${hub.url}/api/sessions`, { name, prompt: "start", safety })));
        await Promise.all(firstTurns);
        const idle = median(await sampled(pid, () => pause(5000)));

        let turns = 0;
        const until = performance.now() + SOAK_MS;
        const during = await sampled(pid, () =>
          Promise.all(
            names.map(async (name) => {
              while (performance.now() < until) {
                const r = await post(`${hub.url}/api/sessions/${name}/send`, { message: `turn ${turns}`, wait: true });
                check(r.completed && r.interaction.status === "completed", `${name}'s turn completed`);
                turns++;
              }
            }),
          ).then(() => undefined),
        );
        const after = await sampled(pid, () => pause(20_000));
        const ended = (await (await fetch(`${hub.url}/api/sessions?team=default`)).json()) as Array<{
          name: string;
          status: string;
          exitReason: string | null;
        }>;
        const notIdle = ended.filter((s) => s.status !== "idle").map((s) => `${s.name} ${s.status} (${s.exitReason})`);
        check(notIdle.length === 0, `every session live and idle after the soak, not ${notIdle.join(", ")}`);
        await Promise.all(names.map((name) => post(`${hub.url}/api/sessions/${name}/stop`, {})));

        const minute = Math.min(60, Math.floor(during.length / 3));
        const first = median(during.slice(0, minute));
        const last = median(during.slice(-minute));
        const peak = Math.max(...during);
        const idleGrowth = after[after.length - 1] / after[0];
        console.log(
          `sessions.soak: the hub process (its own, not the bench's) at rest ${mb(rest)}; with ${SESSIONS} idle sessions ${mb(idle)} ` +
            `(${((idle - rest) / SESSIONS / 1024 / 1024).toFixed(2)} MB per live session); ${turns} turns in ${(SOAK_MS / 1000).toFixed(0)} s: ` +
            `peak ${mb(peak)} ${target(`≤ ${MAX_RSS_MB} MB`, peak <= MAX_RSS_MB * 1024 * 1024)}, ` +
            `median of the first ${minute} s ${mb(first)}, of the last ${minute} s ${mb(last)} (${(last / first).toFixed(2)}x); ` +
            `after it, idle for ${after.length} s, ${mb(after[0])} to ${mb(after[after.length - 1])} ` +
            `${target(`flat, ≤ ${Math.round((MAX_IDLE_GROWTH - 1) * 100)}% growth`, idleGrowth <= MAX_IDLE_GROWTH)}`,
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
