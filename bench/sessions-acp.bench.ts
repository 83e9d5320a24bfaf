/**
 * Codex members (docs/runtimes.md): spawn-to-first-result of a Codex session through the hub against the same
 * codex-acp, with the same config.toml, driven directly over ACP; and the hub's overhead per turn of one Codex session.
 * The real codex-acp against the fake Responses API, in this process.
 */
import fs from "node:fs";
import path from "node:path";
import { startHub } from "../server/server.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { startFakeOpenAi } from "../e2e/fake-openai/server.ts";
import { isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { codexHubEnv } from "../e2e/helpers/codex.ts";
import { resolveCodexBin } from "../server/supervisor/acp/codex-bin.ts";
import { writeCodexHome } from "../server/supervisor/acp/codex-home.ts";
import { startCodexAcp } from "../server/supervisor/acp/connection.ts";
import { HUB_SETTINGS, TOKEN_VAR } from "../server/supervisor/acp/codex-agent.ts";
import { check, post } from "./lib/check.ts";
import { median, ms, summarize, target } from "./lib/stats.ts";
import { sessionHubEnv } from "./lib/session-hub-env.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { eventStream } from "./sessions/events.ts";

const SPAWN_RUNS = 5;
const MAX_SPAWN_RATIO = 1.15;
const TURNS = 20;

/** codex-acp started by hand with the config a hub session gets, until its first prompt's answer. */
async function directFirstResult(dir: string, hubUrl: string, token: string, codex: ReturnType<typeof codexHubEnv>, work: string): Promise<number> {
  const home = fs.mkdtempSync(path.join(dir, "codex-home-"));
  const t0 = performance.now();
  writeCodexHome(home, {
    mcpUrl: `${hubUrl}/mcp`,
    tokenEnvVar: TOKEN_VAR,
    operatorToml: codex.TEAMHUB_CODEX_CONFIG,
    settings: HUB_SETTINGS,
  });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    [TOKEN_VAR]: token,
    ...(JSON.parse(codex.TEAMHUB_CODEX_ENV) as Record<string, string>),
  };
  const acp = await startCodexAcp(
    { bin: resolveCodexBin({}), codexHome: home, cwd: work, env },
    {
      onUpdate: () => {},
      onPermission: () => Promise.resolve({ outcome: { outcome: "cancelled" } }),
    },
  );
  const { sessionId } = await acp.newSession(work);
  const r = await acp.prompt(sessionId, "hello");
  const elapsed = performance.now() - t0;
  check(r.stopReason === "end_turn", "the direct codex-acp answered");
  await acp.stop();
  return elapsed;
}

export default async function sessionsAcp(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const anthropic = await startFakeApi(() => ({ text: "pong" }));
  const openai = await startFakeOpenAi(() => ({ text: "pong" }));
  try {
    await inTempDir(async (dir) => {
      const work = path.join(dir, "work");
      fs.mkdirSync(work);
      const codex = codexHubEnv(openai.url);
      const hub = await startHub(sessionHubEnv(dir, isolatedClaudeVars(anthropic.url, path.join(dir, "home")), work, codex));
      const events = await eventStream(hub.url);
      try {
        const token = (await post(`${hub.url}/api/tokens`, { name: "bench-direct", kind: "agent" })).token as string;
        // Interleaved runs, after one warm-up of each, so disk caches and load touch both alike.
        const direct: number[] = [];
        const viaHub: number[] = [];
        for (let i = -1; i < SPAWN_RUNS; i++) {
          const d = await directFirstResult(dir, hub.url, token, codex, work);
          const name = `cx-spawn-${i + 1}`;
          const done = events.next((e) => e.type === "session.turn_completed" && e.payload.name === name);
          const t0 = performance.now();
          await post(`${hub.url}/api/sessions`, { name, runtime: "codex", prompt: "hello" });
          await done;
          const h = performance.now() - t0;
          await post(`${hub.url}/api/sessions/${name}/stop`, {});
          if (i >= 0) {
            direct.push(d);
            viaHub.push(h);
          }
        }
        const ratio = median(viaHub) / median(direct);
        console.log(
          `sessions.acp.spawn_to_first_result: a Codex session via the hub median ${ms(median(viaHub))} vs the same codex-acp driven directly ${ms(median(direct))} ` +
            `over ${SPAWN_RUNS} runs each; ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_SPAWN_RATIO}x`, ratio <= MAX_SPAWN_RATIO)}`,
        );

        // One Codex session alone: a turn through the hub against the agent's own time for it (the prompt's round trip as the hub saw it).
        await post(`${hub.url}/api/sessions`, { name: "cx-alone", runtime: "codex" });
        const overhead: number[] = [];
        for (let t = 0; t <= TURNS; t++) {
          const t0 = performance.now();
          const r = await post(`${hub.url}/api/sessions/cx-alone/send`, { message: `turn ${t}`, wait: true });
          check(r.completed && r.interaction.status === "completed", "the Codex session's turn completed");
          if (t > 0) overhead.push(performance.now() - t0 - r.interaction.durationMs);
        }
        await post(`${hub.url}/api/sessions/cx-alone/stop`, {});
        const s = summarize(Float64Array.from(overhead));
        console.log(
          `sessions.acp.turn_overhead: one Codex session, ${TURNS} turns: hub overhead per turn p50 ${ms(s.p50)}, p99 ${ms(s.p99)} (the send's wall time less the turn's own duration)`,
        );
      } finally {
        events.close();
        await hub.close();
      }
    });
  } finally {
    await Promise.all([anthropic.close(), openai.close()]);
  }
}
