import pg from "pg";
import { publishWorkload } from "./core/publish-workload.ts";
import { createWatchers, servicePublishes } from "./core/service-publish.ts";
import { onPostgres, pgHub } from "./postgres/pg-bench-db.ts";
const counts = new Map<string, number>();
let on = false;
const orig = pg.Client.prototype.query as any;
(pg.Client.prototype as any).query = function (this: unknown, ...a: any[]) {
  if (on) {
    const t = typeof a[0] === "string" ? a[0] : a[0]?.text;
    const k = String(t).replace(/\s+/g, " ").slice(0, 150);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return orig.apply(this, a);
};
const w = publishWorkload(100, 10);
await onPostgres(process.argv[2], "bench_count", async (url) => {
  const hub = pgHub(url);
  await createWatchers(hub, w);
  on = true;
  await servicePublishes(hub, w);
  on = false;
  await hub.db.close();
});
let total = 0;
const n = w.publishes.length;
for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1])) {
  total += c;
  console.log((c / n).toFixed(2), k);
}
console.log("per publish", total / n);
