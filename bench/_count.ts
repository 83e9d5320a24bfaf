import pg from "pg";
import { PublishArtifactInput } from "../lib/api/artifacts.ts";
import { publishArtifact } from "../server/domain/artifacts/artifacts.service.ts";
import { OPERATOR } from "../server/domain/principal.ts";
import { onPostgres, pgHub } from "./postgres/pg-bench-db.ts";
const counts = new Map<string, number>();
let on = false;
const orig = pg.Client.prototype.query as any;
(pg.Client.prototype as any).query = function (this: unknown, ...a: any[]) {
  if (on) {
    const t = typeof a[0] === "string" ? a[0] : a[0]?.text;
    const k = String(t).replace(/\s+/g, " ").slice(0, 140);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return orig.apply(this, a);
};
await onPostgres(process.argv[2], "bench_count", async (url) => {
  const hub = pgHub(url);
  for (let i = 0; i < 5; i++)
    await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: `a${i % 3}`, type: "test-results", data: { total: 10, passed: 5, failed: 5 } }));
  on = true;
  for (let i = 0; i < 10; i++)
    await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: `a${i % 3}`, type: "test-results", data: { total: 10, passed: 5, failed: 5 } }));
  on = false;
  await hub.db.close();
});
let total = 0;
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) {
  total += n;
  console.log(n / 10, k);
}
console.log("per publish", total / 10);
