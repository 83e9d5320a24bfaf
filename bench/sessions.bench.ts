/**
 * Session figures with the real pinned `claude` against the project's fake Messages API, all in
 * this process: spawn-to-first-result through the hub against the same CLI started directly, the
 * hub's added latency per turn of one session, and 20 concurrent sessions × 10 turns (turns/s,
 * hub RSS, added latency per turn under that load).
 */
import fs from "node:fs";
import path from "node:path";
import { startHub } from "../server/server.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { check, post } from "./lib/check.ts";
import { mb, median, ms, summarize, target } from "./lib/stats.ts";
import { sessionHubEnv } from "./lib/session-hub-env.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { directFirstResult } from "./sessions/direct.ts";
import { randomUUID } from "node:crypto";
import { Safety } from "../lib/api/sessions.ts";
import type { SessionRow } from "../server/domain/sessions/sessions.repo.ts";
import { childEnv, claudeArgs, mcpConfig } from "../server/supervisor/launch.ts";
import { eventStream } from "./sessions/events.ts";

const SPAWN_RUNS = 5;
const MAX_SPAWN_RATIO = 1.15;
const SESSIONS = 20;
const TURNS = 10;
const MAX_OVERHEAD_MS = 20;
const MAX_RSS_MB = 350;

export default async function sessions(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const fake = await startFakeApi(() => ({ text: "pong" }));
  try {
    await inTempDir(async (dir) => {
      const vars = isolatedClaudeVars(fake.url, path.join(dir, "home"));
      const work = path.join(dir, "work");
      fs.mkdirSync(work);
      const env = sessionHubEnv(dir, vars, work);
      const hub = await startHub(env);
      const events = await eventStream(hub.url);
      try {
        // The baseline runs the CLI with exactly the arguments and environment a hub session gets
        // (its own MCP config pointing at this hub included), so the ratio is the supervisor's cost.
        const token = (await post(`${hub.url}/api/tokens`, { name: "bench-direct", kind: "agent" })).token as string;
        const mcpFile = path.join(dir, "direct-mcp.json");
        fs.writeFileSync(mcpFile, JSON.stringify(mcpConfig(hub.url, token)));
        const directEnv = childEnv(env.claude);
        const sessionArgs = (id: string) =>
          claudeArgs(
            { claudeSessionId: id, preset: "edit", model: null, systemPrompt: null, agent: null, maxBudgetUsd: null, costUsd: 0, turns: 0 } as SessionRow,
            { ...Safety.parse({}), approvalTimeoutMs: 0 },
            { kind: "fresh" },
            mcpFile,
          );
        const plain = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];

        // Interleaved runs, after one warm-up of each, so disk caches and load touch all alike.
        const direct: number[] = [];
        const bare: number[] = [];
        const viaHub: number[] = [];
        for (let i = -1; i < SPAWN_RUNS; i++) {
          const d = await directFirstResult(CLAUDE_BIN, sessionArgs(randomUUID()), directEnv, work, "hello");
          const b = await directFirstResult(CLAUDE_BIN, plain, directEnv, work, "hello");
          const name = `spawn-${i + 1}`;
          const done = events.next((e) => e.type === "session.turn_completed" && e.payload.name === name);
          const t0 = performance.now();
          await post(`${hub.url}/api/sessions`, { name, prompt: "hello" });
          await done;
          const h = performance.now() - t0;
          await post(`${hub.url}/api/sessions/${name}/stop`, {});
          if (i >= 0) {
            direct.push(d);
            bare.push(b);
            viaHub.push(h);
          }
        }
        const ratio = median(viaHub) / median(direct);
        console.log(
          `sessions.spawn_to_first_result: via hub median ${ms(median(viaHub))} vs the same claude command run directly ${ms(median(direct))} over ${SPAWN_RUNS} runs each; ` +
            `ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_SPAWN_RATIO}x`, ratio <= MAX_SPAWN_RATIO)} ` +
            `(claude with no hub flags at all, no MCP server: ${ms(median(bare))}, ratio ${(median(viaHub) / median(bare)).toFixed(2)}x)`,
        );

        // One session alone: what the hub adds to a turn when nothing competes for the CPU.
        const alone: number[] = [];
        await post(`${hub.url}/api/sessions`, { name: "alone" });
        for (let t = 0; t < 21; t++) {
          const t0 = performance.now();
          const r = await post(`${hub.url}/api/sessions/alone/send`, { message: `turn ${t}`, wait: true });
          check(r.completed, "the lone session's turn completed");
          if (t > 0) alone.push(performance.now() - t0 - r.interaction.durationMs);
        }
        await post(`${hub.url}/api/sessions/alone/stop`, {});
        const one = summarize(Float64Array.from(alone));
        console.log(
          `sessions.turn_overhead: one session, ${alone.length} turns: hub added latency per turn p50 ${ms(one.p50)}, p99 ${ms(one.p99)} (wall time of send minus the CLI's own duration_ms)`,
        );

        let peakRss = process.memoryUsage().rss;
        const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
        const added: number[] = [];
        const waited: number[] = [];
        const names = Array.from({ length: SESSIONS }, (_, i) => `load-${i}`);
        const started = performance.now();
        await Promise.all(names.map((name) => post(`${hub.url}/api/sessions`, { name })));
        let completed = 0;
        await Promise.all(
          names.map(async (name) => {
            for (let t = 0; t < TURNS; t++) {
              const sentAt = Date.now();
              const t0 = performance.now();
              const r = await post(`${hub.url}/api/sessions/${name}/send`, { message: `turn ${t}`, wait: true });
              const wall = performance.now() - t0;
              check(r.completed && r.interaction.status === "completed", `${name} turn ${t} completed`);
              // Until the turn started: the queue and admission (a place under the live-session limit), not the
              // hub's work; the hub's overhead is what is left once that wait and the CLI's own duration are taken off.
              const wait = Math.max(0, Date.parse(r.interaction.startedAt) - sentAt);
              // The first turn also waits for the process to start, which is the CLI's time, not the hub's.
              if (t > 0) {
                waited.push(wait);
                added.push(Math.max(0, wall - wait - r.interaction.durationMs));
              }
              completed++;
            }
          }),
        );
        const elapsed = performance.now() - started;
        clearInterval(sampler);
        check(completed === SESSIONS * TURNS, "every turn completed");
        const a = summarize(Float64Array.from(added));
        const w = summarize(Float64Array.from(waited));
        console.log(
          `sessions.concurrent: ${SESSIONS} sessions × ${TURNS} turns all completed in ${ms(elapsed)} (${((completed * 1000) / elapsed).toFixed(1)} turns/s, spawn included); ` +
            `hub overhead per turn p50 ${ms(a.p50)} ${target(`≤ ${MAX_OVERHEAD_MS} ms`, a.p50 <= MAX_OVERHEAD_MS)}, p99 ${ms(a.p99)} (send's wall time minus the wait below and the CLI's own duration_ms, turns 2–${TURNS}), ` +
            `ratio ${(a.p50 / one.p50).toFixed(2)}x one session alone; admission and queue wait per turn p50 ${ms(w.p50)}, p99 ${ms(w.p99)} (until the turn started); ` +
            `peak RSS of the process running the hub ${mb(peakRss)} ${target(`≤ ${MAX_RSS_MB} MB`, peakRss <= MAX_RSS_MB * 1024 * 1024)}`,
        );
      } finally {
        events.close();
        await hub.close();
      }
    });
  } finally {
    await fake.close();
  }
}
