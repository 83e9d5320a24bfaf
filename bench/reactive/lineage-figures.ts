/**
 * Figures 2 and 3: lineage queries on the large team. lineage (both directions, default depth)
 * and impact on artifacts drawn with a fixed seed from every layer, so the cones range from a
 * single node to the full 20 layers; then staleArtifacts over the whole team.
 */
import { ImpactInput, LineageInput, StaleInput } from "../../lib/api/lineage.ts";
import { impact, lineage, staleArtifacts } from "../../server/domain/lineage/lineage.service.ts";
import { check } from "../lib/check.ts";
import { seeded } from "../lib/random.ts";
import { ms, summarize, target } from "../lib/stats.ts";
import type { BenchHub } from "../lib/temp-db.ts";
import { samples } from "../lib/timing.ts";
import type { BigTeam } from "./big-team.ts";
import { ARTIFACTS, artifactId } from "./team-plan.ts";

const CALLS = 200;
const WARM_UP = 10;
const MAX_P50_MS = 20;
const STALE_RUNS = 3;
const MAX_STALE_MS = 500;

type Query = { name: string; what: string; run: (id: string) => Promise<number> };

function queries(hub: BenchHub): Query[] {
  return [
    { name: "lineage.upstream", what: "nodes", run: async (ref) => (await lineage(hub, LineageInput.parse({ ref, direction: "upstream" }))).nodes.length },
    { name: "lineage.downstream", what: "nodes", run: async (ref) => (await lineage(hub, LineageInput.parse({ ref, direction: "downstream" }))).nodes.length },
    {
      name: "impact",
      what: "artifacts + contracts",
      run: async (id) => {
        const r = await impact(hub, ImpactInput.parse({ id }));
        return r.artifacts.length + r.contracts.length;
      },
    },
  ];
}

export async function lineageFigures(hub: BenchHub): Promise<void> {
  const rng = seeded(4);
  for (const q of queries(hub)) {
    for (let i = 0; i < WARM_UP; i++) await q.run(artifactId(rng.int(ARTIFACTS)));
    const ids = Array.from({ length: CALLS }, () => artifactId(rng.int(ARTIFACTS)));
    const sizes: number[] = [];
    const s = summarize(await samples(CALLS, async (i) => sizes.push(await q.run(ids[i]))));
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    console.log(
      `reactive.${q.name}: ${CALLS} calls on random artifacts (default depth), p50 ${ms(s.p50)} ${target(`p50 < ${MAX_P50_MS} ms`, s.p50 < MAX_P50_MS)}, ` +
        `p99 ${ms(s.p99)} (results: mean ${mean.toFixed(0)} ${q.what}, max ${Math.max(...sizes)})`,
    );
  }
}

export async function staleFigure(hub: BenchHub, team: BigTeam): Promise<void> {
  let found = 0;
  const s = summarize(await samples(STALE_RUNS, async () => (found = (await staleArtifacts(hub, StaleInput.parse({}))).length)));
  check(found === team.stale.size, `staleArtifacts found ${found} stale artifacts, the plan makes ${team.stale.size}`);
  console.log(
    `reactive.stale: staleArtifacts over ${ARTIFACTS} artifacts (${found} stale), median of ${STALE_RUNS} runs ${ms(s.p50)} ${target(`< ${MAX_STALE_MS} ms`, s.p50 < MAX_STALE_MS)}`,
  );
}
