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

/** A query, and what its result tells: its size, and how many of its stale flags disagree with the plan. */
type Query = { name: string; what: string; call: (id: string) => Promise<unknown>; inspect: (result: unknown) => { size: number; wrong: number } };

function query<T>(name: string, what: string, call: (id: string) => Promise<T>, inspect: (result: T) => { size: number; wrong: number }): Query {
  return { name, what, call, inspect: (result) => inspect(result as T) };
}

function queries(hub: BenchHub, { stale }: BigTeam): Query[] {
  const graph = (direction: "upstream" | "downstream") =>
    query(
      `lineage.${direction}`,
      "nodes",
      (ref) => lineage(hub, LineageInput.parse({ ref, direction })),
      (g) => ({ size: g.nodes.length, wrong: g.nodes.filter((n) => n.stale !== (n.current && stale.has(n.artifactId))).length }),
    );
  return [
    graph("upstream"),
    graph("downstream"),
    query(
      "impact",
      "artifacts + contracts",
      (id) => impact(hub, ImpactInput.parse({ id })),
      (r) => ({ size: r.artifacts.length + r.contracts.length, wrong: 0 }),
    ),
  ];
}

export async function lineageFigures(hub: BenchHub, team: BigTeam): Promise<void> {
  const rng = seeded(4);
  for (const q of queries(hub, team)) {
    for (let i = 0; i < WARM_UP; i++) await q.call(artifactId(rng.int(ARTIFACTS)));
    const ids = Array.from({ length: CALLS }, () => artifactId(rng.int(ARTIFACTS)));
    const results: unknown[] = [];
    const s = summarize(await samples(CALLS, async (i) => results.push(await q.call(ids[i]))));
    const seen = results.map(q.inspect);
    const wrong = seen.reduce((n, r) => n + r.wrong, 0);
    check(wrong === 0, `${q.name}: ${wrong} nodes flagged stale or not stale against the plan`);
    const sizes = seen.map((r) => r.size);
    console.log(
      `reactive.${q.name}: ${CALLS} calls on random artifacts (default depth), p50 ${ms(s.p50)} ${target(`p50 < ${MAX_P50_MS} ms`, s.p50 < MAX_P50_MS)}, ` +
        `p99 ${ms(s.p99)} (results: mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(0)} ${q.what}, max ${Math.max(...sizes)})`,
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
