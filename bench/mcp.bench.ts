/**
 * MCP figures over /mcp of a hub started in this process: the tools/call round trip of
 * artifact_get against a trivial echo tool on the same server and transport, and 50 concurrent
 * clients × 200 calls.
 */
import { readEnv } from "../server/env.ts";
import { startHub } from "../server/server.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check } from "./lib/check.ts";
import { ms, summarize, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { connect, timedCall } from "./mcp/clients.ts";
import { echoTool } from "./mcp/echo-tool.ts";

const ROUND_TRIPS = 2000;
const CLIENTS = 50;
const CALLS_EACH = 200;
const MAX_RATIO = 1.5;

export default async function mcp(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  await inTempDir(async (dir) => {
    const env = readEnv({ ...process.env, TEAMHUB_DATA_DIR: dir, PORT: "0", TEAMHUB_QUIET: "1", TEAMHUB_HOST: "127.0.0.1" });
    const hub = await startHub(env, { mcpExtraTools: [echoTool] });
    try {
      const client = await connect(hub.url);
      const published = await client.callTool({ name: "artifact_publish", arguments: { id: "doc", type: "custom", data: { text: "x".repeat(200) } } });
      check(!(published as { isError?: boolean }).isError, "seed artifact published");

      // Interleaved, so drift in machine load touches both alike.
      const echo = new Float64Array(ROUND_TRIPS);
      const get = new Float64Array(ROUND_TRIPS);
      for (let i = -200; i < ROUND_TRIPS; i++) {
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
        `mcp.roundtrip: artifact_get p50 ${ms(sg.p50)}, p99 ${ms(sg.p99)} vs echo p50 ${ms(se.p50)}, p99 ${ms(se.p99)} over ${ROUND_TRIPS} calls each; ` +
          `ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO)}`,
      );
      await client.close();

      const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(hub.url)));
      const latencies = new Float64Array(CLIENTS * CALLS_EACH);
      let errors = 0;
      const start = performance.now();
      await Promise.all(
        clients.map(async (c, k) => {
          for (let i = 0; i < CALLS_EACH; i++) {
            try {
              const r = await timedCall(c, "artifact_get", { id: "doc" });
              latencies[k * CALLS_EACH + i] = r.ms;
              if (r.isError) errors++;
            } catch {
              errors++;
            }
          }
        }),
      );
      const wall = performance.now() - start;
      await Promise.all(clients.map((c) => c.close()));
      const s = summarize(latencies);
      console.log(
        `mcp.concurrency: ${CLIENTS} clients × ${CALLS_EACH} artifact_get calls, ${errors} errors ${target("0 errors", errors === 0)}, ` +
          `${((CLIENTS * CALLS_EACH * 1000) / wall).toFixed(0)} calls/s, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`,
      );
      check(errors === 0, "no errors under concurrency");
    } finally {
      await hub.close();
    }
  });
}
