import { publishWorkload } from "./core/publish-workload.ts";
import { createWatchers, servicePublishes } from "./core/service-publish.ts";
import { summarize, ms } from "./lib/stats.ts";
import { onPostgres, pgHub } from "./postgres/pg-bench-db.ts";
import { rawPgPublishes } from "./postgres/raw-publish.ts";
const server = process.argv[2];
for (const n of [20, 100, 100]) {
  const w = publishWorkload(n, 10);
  let raw!: Float64Array, service!: Float64Array;
  await onPostgres(server, "bench_raw", async (url) => void (raw = await rawPgPublishes(url, w)));
  await onPostgres(server, "bench_service", async (url) => {
    const hub = pgHub(url);
    try {
      await createWatchers(hub, w);
      service = await servicePublishes(hub, w);
    } finally {
      await hub.db.close();
    }
  });
  const r = summarize(raw),
    s = summarize(service);
  console.log(n, "ratio", (r.opsPerSec / s.opsPerSec).toFixed(2), "service p50", ms(s.p50), "raw p50", ms(r.p50));
}
