/**
 * Figures 1 and 3: publish throughput and latency through the service layer against raw
 * better-sqlite3 writes of the same rows, and the process's peak RSS during the service run.
 * Both paths first run a small workload on a throwaway database, so the JIT is warm and the
 * measured p99 is about steady-state publishing, not compilation.
 */
import { mb, ms, summarize, target } from "../lib/stats.ts";
import { inTempDir, openHub, openRaw } from "../lib/temp-db.ts";
import { publishWorkload, type Workload } from "./publish-workload.ts";
import { rawPublishes } from "./raw-publish.ts";
import { SAMPLE_EVERY, createWatchers, servicePublishes } from "./service-publish.ts";
import { verifyContractsCompleted, verifyPublished } from "./verify-publish.ts";

const ARTIFACTS = 1000;
const ROUNDS = 10;
const WARM_UP = { artifacts: 100, rounds: 10 };
const MAX_RATIO = 5;
const MAX_P99_MS = 5;

function rawRun(w: Workload): Promise<Float64Array> {
  return inTempDir(async (dir) => {
    const raw = openRaw(dir);
    try {
      const latencies = rawPublishes(raw.raw, w);
      verifyPublished(raw.raw, w, "raw baseline");
      return latencies;
    } finally {
      raw.close();
    }
  });
}

function serviceRun(w: Workload, sample?: () => void): Promise<Float64Array> {
  return inTempDir(async (dir) => {
    const hub = openHub(dir);
    try {
      await createWatchers(hub, w);
      const latencies = await servicePublishes(hub, w, sample);
      verifyPublished(hub.sqlite.reader.raw, w, "service");
      verifyContractsCompleted(hub.sqlite.reader.raw, w);
      return latencies;
    } finally {
      hub.close();
    }
  });
}

export async function publishFigures(): Promise<void> {
  const warmUp = publishWorkload(WARM_UP.artifacts, WARM_UP.rounds);
  await rawRun(warmUp);
  await serviceRun(warmUp);

  const w = publishWorkload(ARTIFACTS, ROUNDS);
  const raw = summarize(await rawRun(w));
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const service = summarize(await serviceRun(w, () => void (peakRss = Math.max(peakRss, process.memoryUsage.rss()))));
  const maxRss = process.resourceUsage().maxRSS * 1024;

  const ratio = raw.opsPerSec / service.opsPerSec;
  console.log(
    `core.publish: ${service.count} publishes over ${w.artifacts} artifacts (${w.contracts.length} watching contracts, all completed), ` +
      `${service.opsPerSec.toFixed(0)} ops/s, p50 ${ms(service.p50)}, p99 ${ms(service.p99)} ${target(`< ${MAX_P99_MS} ms`, service.p99 < MAX_P99_MS)}, ` +
      `ratio ${ratio.toFixed(1)}x raw better-sqlite3 by throughput ${target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO)} ` +
      `(raw ${raw.opsPerSec.toFixed(0)} ops/s, p50 ${ms(raw.p50)}, p99 ${ms(raw.p99)}; p50 ratio ${(service.p50 / raw.p50).toFixed(1)}x)`,
  );
  console.log(
    `core.memory: peak RSS ${mb(peakRss)} during the ${service.count}-publish run (${mb(rssBefore)} before it; sampled every ${SAMPLE_EVERY} publishes; process maxRSS so far ${mb(maxRss)})`,
  );
}
