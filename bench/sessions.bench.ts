/**
 * Session figures with the real pinned `claude` against the project's fake Messages API, all in
 * this process: spawn-to-first-result through the hub against the same CLI started directly, the
 * hub overhead per turn of one session, and 20 concurrent sessions × 10 turns (turns/s,
 * hub RSS, the hub overhead per turn under that load, apart from the admission wait and the CLI: ./sessions/turn-parts.ts).
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
import type { SessionRow } from "../server/db/rows.ts";
import { childEnv, claudeArgs, mcpConfig } from "../server/supervisor/launch.ts";
import { eventStream } from "./sessions/events.ts";
import { turnParts, type SentTurn, type TurnParts } from "./sessions/turn-parts.ts";

const SPAWN_RUNS = 5;
const MAX_SPAWN_RATIO = 1.15;
const SESSIONS = 20;
const TURNS = 10;
const MAX_OVERHEAD_MS = 20;
const MAX_RSS_MB = 350;

const p50 = (values: number[]) => ms(summarize(Float64Array.from(values)).p50);
const partsLine = (parts: TurnParts[]) =>
  `wait (queue, admission and a process's start again) p50 ${p50(parts.map((p) => p.waitMs))}, ` +
  `CLI p50 ${p50(parts.map((p) => p.cliMs))} of which its start of the turn ${p50(parts.map((p) => p.cliStartMs))}`;

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
        const alone: SentTurn[] = [];
        await post(`${hub.url}/api/sessions`, { name: "alone" });
        for (let t = 0; t < 21; t++) {
          const t0 = performance.now();
          const r = await post(`${hub.url}/api/sessions/alone/send`, { message: `turn ${t}`, wait: true });
          check(r.completed, "the lone session's turn completed");
          if (t > 0) alone.push({ session: "alone", wallMs: performance.now() - t0, interaction: r.interaction });
        }
        await post(`${hub.url}/api/sessions/alone/stop`, {});
        const aloneParts = await turnParts(hub.url, alone);
        const one = summarize(Float64Array.from(aloneParts.map((p) => p.hubMs)));
        console.log(
          `sessions.turn_overhead: one session, ${alone.length} turns: hub overhead per turn p50 ${ms(one.p50)}, p99 ${ms(one.p99)} ` +
            `(the send's wall time less the wait for its start and the CLI: ${partsLine(aloneParts)})`,
        );

        let peakRss = process.memoryUsage().rss;
        const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
        const turns: SentTurn[] = [];
        const names = Array.from({ length: SESSIONS }, (_, i) => `load-${i}`);
        const started = performance.now();
        await Promise.all(names.map((name) => post(`${hub.url}/api/sessions`, { name })));
        await Promise.all(
          names.map(async (name) => {
            for (let t = 0; t < TURNS; t++) {
              const t0 = performance.now();
              const r = await post(`${hub.url}/api/sessions/${name}/send`, { message: `turn ${t}`, wait: true });
              check(r.completed && r.interaction.status === "completed", `${name} turn ${t} completed`);
              // The first turn also waits for the process to start, which is the CLI's time, not the hub's.
              if (t > 0) turns.push({ session: name, wallMs: performance.now() - t0, interaction: r.interaction });
            }
          }),
        );
        const elapsed = performance.now() - started;
        clearInterval(sampler);
        check(turns.length === SESSIONS * (TURNS - 1), "every turn completed");
        const parts = await turnParts(hub.url, turns);
        const a = summarize(Float64Array.from(parts.map((p) => p.hubMs)));
        console.log(
          `sessions.concurrent: ${SESSIONS} sessions × ${TURNS} turns all completed in ${ms(elapsed)} (${((SESSIONS * TURNS * 1000) / elapsed).toFixed(1)} turns/s, spawn included); ` +
            `hub overhead per turn p50 ${ms(a.p50)} ${target(`≤ ${MAX_OVERHEAD_MS} ms`, a.p50 <= MAX_OVERHEAD_MS)}, p99 ${ms(a.p99)}, ratio ${(a.p50 / one.p50).toFixed(2)}x one session alone ` +
            `(turns 2–${TURNS}, the send's wall time less the wait for its start and the CLI: ${partsLine(parts)}); ` +
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
