/**
 * Figures 1 and 3: publish throughput and latency through the service layer against raw
 * better-sqlite3 writes of the same rows, interleaved in blocks (./publish-ab.ts), and the
 * process's peak RSS during the run. A small workload runs first on throwaway databases, so the
 * JIT is warm and the measured p99 is about steady-state publishing, not compilation.
 */
import { summarize, mb, ms, target, type Summary } from "../lib/stats.ts";
import { interleavedPublishes } from "./publish-ab.ts";
import { publishWorkload } from "./publish-workload.ts";
import { SAMPLE_EVERY } from "./service-publish.ts";

const ARTIFACTS = 1000;
const ROUNDS = 10;
const WARM_UP = { artifacts: 100, rounds: 10 };
export const MAX_RATIO = 1.5;
const MAX_P99_MS = 0.5;

export type PublishRatio = { raw: Summary; service: Summary; ratio: number; peakRss: number; rssBefore: number };

/** `artifacts` × `rounds` publishes each way after the warm-up; the ratio is raw throughput over the service's. */
export async function publishRatio(artifacts: number, rounds: number): Promise<PublishRatio> {
  await interleavedPublishes(publishWorkload(WARM_UP.artifacts, WARM_UP.rounds));
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sides = await interleavedPublishes(publishWorkload(artifacts, rounds), () => void (peakRss = Math.max(peakRss, process.memoryUsage.rss())));
  const raw = summarize(sides.raw);
  const service = summarize(sides.service);
  return { raw, service, ratio: raw.opsPerSec / service.opsPerSec, peakRss, rssBefore };
}

export const publishLine = (label: string, { raw, service, ratio }: PublishRatio, maxRatio: number, maxP99?: number) =>
  `${label}: ${service.count} publishes (100 watching contracts per 1,000 artifacts, all completed), ` +
  `${service.opsPerSec.toFixed(0)} ops/s, p50 ${ms(service.p50)}, p99 ${ms(service.p99)}${maxP99 ? ` ${target(`≤ ${maxP99} ms`, service.p99 <= maxP99)}` : ""}, ` +
  `ratio ${ratio.toFixed(2)}x raw better-sqlite3 by throughput ${target(`≤ ${maxRatio}x`, ratio <= maxRatio)} ` +
  `(raw ${raw.opsPerSec.toFixed(0)} ops/s, p50 ${ms(raw.p50)}, p99 ${ms(raw.p99)}, interleaved; p50 ratio ${(service.p50 / raw.p50).toFixed(2)}x)`;

export async function publishFigures(): Promise<void> {
  const r = await publishRatio(ARTIFACTS, ROUNDS);
  console.log(publishLine("core.publish", r, MAX_RATIO, MAX_P99_MS));
  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `core.memory: peak RSS ${mb(r.peakRss)} during the ${r.service.count}-publish run (${mb(r.rssBefore)} before it; sampled every ${SAMPLE_EVERY} publishes; process maxRSS so far ${mb(maxRss)})`,
  );
}
