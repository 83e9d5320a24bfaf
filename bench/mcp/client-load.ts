/**
 * The MCP figures' clients, run in a process of their own as agents' are (`node --import tsx bench/mcp/client-load.ts`,
 * its task as JSON in argv[2]; it prints its measurements as one JSON line). In the hub's process they shared its CPU,
 * and their fetch was the one Next.js patches for its pages, which no agent's is.
 */
import { connect, timedCall } from "./clients.ts";

export type LoadTask =
  { kind: "roundtrip"; url: string; calls: number } | { kind: "concurrency"; url: string; tokens: string[]; callsEach: number; baselineCalls: number };

export type RoundTrips = { echo: number[]; get: number[] };
export type Concurrency = { latencies: number[]; errors: number; firstError: string; wallMs: number; oneRate: number };

async function roundTrips(url: string, calls: number): Promise<RoundTrips> {
  const client = await connect(url);
  const echo: number[] = [];
  const get: number[] = [];
  // Interleaved, so drift in machine load touches both alike; the first quarter warms up.
  for (let i = -Math.min(200, calls / 4); i < calls; i++) {
    const e = await timedCall(client, "bench_echo", { id: "doc" });
    const g = await timedCall(client, "artifact_get", { id: "doc" });
    if (e.isError || g.isError) throw new Error("a round trip failed");
    if (i < 0) continue;
    echo.push(e.ms);
    get.push(g.ms);
  }
  await client.close();
  return { echo, get };
}

async function concurrency(url: string, tokens: string[], callsEach: number, baselineCalls: number): Promise<Concurrency> {
  const clients = await Promise.all(tokens.map((token) => connect(url, token)));
  const latencies: number[] = [];
  let errors = 0;
  let firstError = "";
  const start = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < callsEach; i++) {
        try {
          const r = await timedCall(c, "artifact_get", { id: "doc" });
          latencies.push(r.ms);
          if (r.isError) errors++;
        } catch (e) {
          errors++;
          firstError ||= (e as Error).message;
        }
      }
    }),
  );
  const wallMs = performance.now() - start;
  await Promise.all(clients.map((c) => c.close()));
  // The baseline: the same calls from one client, one after another, in this run.
  const one = await connect(url, tokens[0]);
  const oneStart = performance.now();
  for (let i = 0; i < baselineCalls; i++) await timedCall(one, "artifact_get", { id: "doc" });
  const oneRate = (baselineCalls * 1000) / (performance.now() - oneStart);
  await one.close();
  return { latencies, errors, firstError, wallMs, oneRate };
}

const task = JSON.parse(process.argv[2]) as LoadTask;
const result =
  task.kind === "roundtrip" ? await roundTrips(task.url, task.calls) : await concurrency(task.url, task.tokens, task.callsEach, task.baselineCalls);
process.stdout.write(`${JSON.stringify(result)}\n`);
