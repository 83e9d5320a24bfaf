/**
 * MCP figures over /mcp of a hub started in this process, its clients in another (bench/mcp/client-load.ts), as
 * agents are: the tools/call round trip of artifact_get against a trivial echo tool on the same server and transport,
 * and 50 concurrent clients × 200 calls, each client with a member token of its own, as agents connect (50 clients of
 * one principal would pass its session cap, docs/security.md#web-side), against the same calls from one client in the
 * same run.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readEnv } from "../server/env.ts";
import { startHub } from "../server/server.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check, post } from "./lib/check.ts";
import { ms, summarize, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { connect } from "./mcp/clients.ts";
import type { Concurrency, LoadTask, RoundTrips } from "./mcp/client-load.ts";
import { echoTool } from "./mcp/echo-tool.ts";

const CLIENTS = 50;
const CLIENT_LOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp", "client-load.ts");

/** Runs the clients' side of a figure in a process of their own (bench/mcp/client-load.ts) and returns what it measured. */
function clientProcess<T>(task: LoadTask): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", CLIENT_LOAD, JSON.stringify(task)], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`MCP client process: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as T);
    });
  });
}

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
      await client.close();

      const trips = await clientProcess<RoundTrips>({ kind: "roundtrip", url: hub.url, calls: ROUND_TRIPS });
      const se = summarize(Float64Array.from(trips.echo));
      const sg = summarize(Float64Array.from(trips.get));
      const ratio = sg.p50 / se.p50;
      console.log(
        `${label}.roundtrip: artifact_get p50 ${ms(sg.p50)}, p99 ${ms(sg.p99)} vs echo p50 ${ms(se.p50)}, p99 ${ms(se.p99)} over ${ROUND_TRIPS} calls each ` +
          `from a client process; ratio ${ratio.toFixed(2)}x ${target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO)}`,
      );

      const tokens = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, k) => (await post(`${hub.url}/api/tokens`, { name: `bench-agent-${k}`, kind: "member" })).token as string),
      );
      const load = await clientProcess<Concurrency>({ kind: "concurrency", url: hub.url, tokens, callsEach: CALLS_EACH, baselineCalls: CALLS_EACH * 5 });
      const { errors, firstError, oneRate } = load;
      const s = summarize(Float64Array.from(load.latencies));
      const rate = (CLIENTS * CALLS_EACH * 1000) / load.wallMs;
      console.log(
        `${label}.concurrency: ${CLIENTS} clients (a member token each, in a process of their own) × ${CALLS_EACH} artifact_get calls, ${errors} errors ${target("0 errors", errors === 0)}${firstError ? ` (${firstError})` : ""}, ` +
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
