/**
 * MCP figures over /mcp of a hub started in this process: the tools/call round trip of
 * artifact_get against a trivial echo tool on the same server and transport, and 50 concurrent
 * clients × 200 calls, each client with a member token of its own, as agents connect (50 clients of
 * one principal would pass its session cap, docs/security.md#web-side), against the same calls from
 * one client in the same run.
 */
import { readEnv } from "../server/env.ts";
import { startHub } from "../server/server.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check, post } from "./lib/check.ts";
import { ms, summarize, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { connect, timedCall } from "./mcp/clients.ts";
import { echoTool } from "./mcp/echo-tool.ts";

const CLIENTS = 50;

export type McpLimits = { roundTrips: number; callsEach: number; maxRatio: number; minCallsPerSecond: number; label: string };
export type McpFigures = { ratio: number; errors: number; callsPerSecond: number };

const FULL: McpLimits = { roundTrips: 2000, callsEach: 200, maxRatio: 1.2, minCallsPerSecond: 1500, label: "mcp" };

export default async function mcp(): Promise<void> {
  await mcpFigures(FULL);
}

export async function mcpFigures({
  roundTrips: ROUND_TRIPS,
  callsEach: CALLS_EACH,
  maxRatio: MAX_RATIO,
  minCallsPerSecond: MIN_CALLS_PER_SECOND,
  label,
}: McpLimits): Promise<McpFigures> {
  ensureBuild(PROJECT_ROOT);
  return inTempDir(async (dir) => {
    const env = readEnv({ ...process.env, TEAMHUB_DATA_DIR: dir, PORT: "0", TEAMHUB_QUIET: "1", TEAMHUB_HOST: "127.0.0.1" });
    const hub = await startHub(env, { mcpExtraTools: [echoTool] });
    try {
      const client = await connect(hub.url);
      const published = await client.callTool({ name: "artifact_publish", arguments: { id: "doc", type: "custom", data: { text: "x".repeat(200) } } });
      check(!(published as { isError?: boolean }).isError, "seed artifact published");

      // Interleaved, so drift in machine load touches both alike.
      const echo = new Float64Array(ROUND_TRIPS);
      const get = new Float64Array(ROUND_TRIPS);
      for (let i = -Math.min(200, ROUND_TRIPS / 4); i < ROUND_TRIPS; i++) {
        const e = await timedCall(client, "bench_echo", { id: "doc" });
        const g = await timedCall(client, "artifact_get", { id: "doc" });
        check(!e.isError && !g.isError, "round trips succeed");
        if (i >= 0) {
          echo[i] = e.ms;
          get[i] = g.ms;
        }
      }
      const se = summarize(echo);
      const sg = summarize(get);
      const ratio = sg.p50 / se.p50;
      console.log(
        `${label}.roundtrip: artifact_get p50 ${ms(sg.p50)}, p99 ${ms(sg.p99)} vs echo p50 ${ms(se.p50)}, p99 ${ms(se.p99)} over ${ROUND_TRIPS} calls each; ` +
          `ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO)}`,
      );
      await client.close();

      const tokens = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, k) => (await post(`${hub.url}/api/tokens`, { name: `bench-agent-${k}`, kind: "member" })).token as string),
      );
      const clients = await Promise.all(tokens.map((token) => connect(hub.url, token)));
      const latencies = new Float64Array(CLIENTS * CALLS_EACH);
      let errors = 0;
      let firstError = "";
      const start = performance.now();
      await Promise.all(
        clients.map(async (c, k) => {
          for (let i = 0; i < CALLS_EACH; i++) {
            try {
              const r = await timedCall(c, "artifact_get", { id: "doc" });
              latencies[k * CALLS_EACH + i] = r.ms;
              if (r.isError) errors++;
            } catch (e) {
              errors++;
              firstError ||= (e as Error).message;
            }
          }
        }),
      );
      const wall = performance.now() - start;
      await Promise.all(clients.map((c) => c.close()));
      // The baseline: 1,000 calls from one client, one after another, in this run.
      const one = await connect(hub.url, tokens[0]);
      const oneStart = performance.now();
      for (let i = 0; i < CALLS_EACH * 5; i++) await timedCall(one, "artifact_get", { id: "doc" });
      const oneRate = (CALLS_EACH * 5 * 1000) / (performance.now() - oneStart);
      await one.close();
      const s = summarize(latencies);
      const rate = (CLIENTS * CALLS_EACH * 1000) / wall;
      console.log(
        `${label}.concurrency: ${CLIENTS} clients (a member token each) × ${CALLS_EACH} artifact_get calls, ${errors} errors ${target("0 errors", errors === 0)}${firstError ? ` (${firstError})` : ""}, ` +
          `${rate.toFixed(0)} calls/s ${target(`≥ ${MIN_CALLS_PER_SECOND}`, rate >= MIN_CALLS_PER_SECOND)}, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}; ` +
          `ratio ${(rate / oneRate).toFixed(2)}x one client's ${oneRate.toFixed(0)} calls/s in sequence`,
      );
      check(errors === 0, "no errors under concurrency");
      return { ratio, errors, callsPerSecond: rate };
    } finally {
      await hub.close();
    }
  });
}
