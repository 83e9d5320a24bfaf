/**
 * `sessions.admission`: 50 spawns (each with a first prompt) requested at once against a real hub
 * process with the real pinned `claude` and the fake Messages API, once with the admission limit
 * the hub derives on this machine and once with TEAMHUB_MAX_LIVE_SESSIONS=0 (no limit), in the
 * same run: /api/health p50/p99 sampled every 20 ms during the run, the time until every first
 * turn is done, and the peak number of `claude` processes alive at once (counted in /proc).
 */
import fs from "node:fs";
import path from "node:path";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { directiveModel } from "../e2e/fake-anthropic/directives.ts";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { api, startHub } from "../e2e/helpers/hub-process.ts";
import { check } from "./lib/check.ts";
import { every, peakProcesses } from "./lib/processes.ts";
import { ms, ratio, summarize } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";

const SPAWNS = 50;
const HEALTH_EVERY_MS = 20;
const DONE_WITHIN_MS = 15 * 60_000;

type Run = { limit: number; health: { p50: number; p99: number; count: number }; allDoneMs: number; peakProcesses: number };

async function run(dir: string, label: string, apiUrl: string, env: Record<string, string>): Promise<Run> {
  const work = path.join(dir, `work-${label}`);
  fs.mkdirSync(work);
  const hub = await startHub(path.join(dir, `data-${label}`), {
    CLAUDE_BIN,
    TEAMHUB_CLAUDE_ENV: JSON.stringify(isolatedClaudeVars(apiUrl, path.join(dir, `home-${label}`))),
    TEAMHUB_WORK_DIR: work,
    TEAMHUB_QUIET: "1",
    ...env,
  });
  try {
    const limit = (await api(hub, "GET", "/api/health")).body.maxLiveSessions as number;
    const latencies: number[] = [];
    const stopHealth = every(HEALTH_EVERY_MS, async () => {
      const t0 = performance.now();
      const r = await api(hub, "GET", "/api/health");
      latencies.push(performance.now() - t0);
      check(r.status === 200, `/api/health answered ${r.status}`);
    });
    const stopCount = peakProcesses(hub.child.pid!);
    const names = Array.from({ length: SPAWNS }, (_, i) => `adm-${i}`);
    const started = performance.now();
    const spawned = await Promise.all(names.map((name) => api(hub, "POST", "/api/sessions", { name, prompt: `hello ${name}` })));
    check(
      spawned.every((r) => r.status === 201),
      `every spawn accepted: ${JSON.stringify(spawned.find((r) => r.status !== 201)?.body)}`,
    );
    let allDoneMs = 0;
    while (!allDoneMs) {
      const list = (await api(hub, "GET", "/api/sessions?limit=500")).body as Array<{ name: string; interactions: number; lastOutput: string | null }>;
      const done = list.filter((s) => s.interactions >= 1);
      if (done.length === SPAWNS) allDoneMs = performance.now() - started;
      else check(performance.now() - started < DONE_WITHIN_MS, `${SPAWNS - done.length} first turns still not done after ${ms(DONE_WITHIN_MS)} (${label})`);
      for (const s of done) check(s.lastOutput === `pong: hello ${s.name}`, `${s.name} answered its own prompt`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await stopHealth();
    const peak = await stopCount();
    if (limit > 0) check(peak <= limit, `at most ${limit} claude processes at once, saw ${peak}`);
    const h = summarize(Float64Array.from(latencies));
    return { limit, health: { p50: h.p50, p99: h.p99, count: h.count }, allDoneMs, peakProcesses: peak };
  } finally {
    await hub.kill();
  }
}

export default async function admission(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const fake = await startFakeApi(directiveModel());
  try {
    await inTempDir(async (dir) => {
      const limited = await run(dir, "limited", fake.url, {});
      const open = await run(dir, "open", fake.url, { TEAMHUB_MAX_LIVE_SESSIONS: "0" });
      const vs = `limit ${limited.limit} (derived here) vs no limit`;
      console.log(
        `sessions.admission: ${SPAWNS} spawns at once; /api/health p50 ${ms(limited.health.p50)} vs ${ms(open.health.p50)} (${vs}), ratio ${ratio(limited.health.p50, open.health.p50)}`,
      );
      console.log(
        `sessions.admission: /api/health p99 ${ms(limited.health.p99)} vs ${ms(open.health.p99)} (${vs}; ${limited.health.count} and ${open.health.count} samples), ratio ${ratio(limited.health.p99, open.health.p99)}`,
      );
      console.log(
        `sessions.admission: all ${SPAWNS} first turns done in ${ms(limited.allDoneMs)} vs ${ms(open.allDoneMs)} (${vs}), ratio ${ratio(limited.allDoneMs, open.allDoneMs)}`,
      );
      console.log(
        `sessions.admission: peak concurrent claude processes ${limited.peakProcesses} vs ${open.peakProcesses} (${vs}), ratio ${ratio(limited.peakProcesses, open.peakProcesses)}`,
      );
    });
  } finally {
    await fake.close();
  }
}
