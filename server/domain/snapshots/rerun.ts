/**
 * Replay re-execution (docs/replay.md#the-re-run-set): every contract named in the overrides and every contract downstream
 * of it starts a new run, whatever state the snapshot held it in. See docs/replay.md.
 *
 * "Downstream" follows what resolution itself looks at: a contract dependency or a
 * `contract_completed` criterion on a re-run contract, and an artifact dependency or an
 * `artifact_published` / `tests_passing` criterion on an artifact a re-run contract produces
 * (expects by id, recorded as an output, or published under it).
 */
import type { WriteTx } from "../../db/database.ts";
import type { Sql } from "../../db/connection.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { ArtifactRow, ArtifactVersionRow } from "../../db/rows.ts";
import type { Criterion } from "../../../lib/api/contracts.ts";
import { maxSeq } from "../artifacts/refs.ts";
import { loadContract } from "../contracts/contracts.repo.ts";
import { dependenciesSatisfied } from "../contracts/criteria.ts";
import { setStatus } from "../contracts/transitions.ts";
import type { ContractState } from "./state.ts";

export type ReRunStep = { id: string; because: string };
/** Artifact id → the contracts that produce it. */
export type Producers = Map<string, Set<string>>;

type Edge = { to: string; because: string };

/** Which contracts produce which artifacts, from the contracts' own fields and what was published under them. */
export async function producersOf(s: Sql, team: string, contracts: ContractState[]): Promise<Producers> {
  const producers: Producers = new Map();
  const add = (artifactId: string, contractId: string) => {
    const set = producers.get(artifactId);
    if (set) set.add(contractId);
    else producers.set(artifactId, new Set([contractId]));
  };
  for (const c of contracts) {
    for (const o of c.expectedOutputs) if (o.artifactId) add(o.artifactId, c.id);
    for (const o of c.outputs ?? []) add(o.artifactId, c.id);
  }
  const published = await s.all<{ artifactId: ArtifactRow["id"]; contractId: NonNullable<ArtifactVersionRow["contractId"]> }>(
    sql`SELECT DISTINCT a."id" AS "artifactId", v."contractId" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE a."teamId" = ${team} AND v."contractId" IS NOT NULL`,
  );
  for (const p of published) add(p.artifactId, p.contractId);
  return producers;
}

/** The artifacts a contract's criteria read the current version of. */
const criterionArtifact = (k: Criterion): string | null => (k.type === "artifact_published" || k.type === "tests_passing" ? k.artifactId : null);

/** For each contract, the contracts that come after it and why. */
function downstreamEdges(contracts: ContractState[], producers: Producers): Map<string, Edge[]> {
  const edges = new Map<string, Edge[]>();
  const add = (from: string, to: string, because: string) => {
    if (from === to) return;
    const list = edges.get(from);
    if (list) list.push({ to, because });
    else edges.set(from, [{ to, because }]);
  };
  const fromProducers = (artifactId: string, to: string, how: string) => {
    for (const p of producers.get(artifactId) ?? []) add(p, to, `${how} '${artifactId}', which '${p}' produces`);
  };
  for (const c of contracts) {
    for (const d of c.dependencies) {
      if (d.type === "contract") add(d.contractId, c.id, `depends on contract '${d.contractId}'`);
      else fromProducers(d.artifactId, c.id, "depends on artifact");
    }
    for (const k of c.acceptanceCriteria) {
      if (k.type === "contract_completed") add(k.contractId, c.id, `its criteria wait for contract '${k.contractId}'`);
      const artifactId = criterionArtifact(k);
      if (artifactId) fromProducers(artifactId, c.id, "its criteria read artifact");
    }
  }
  return edges;
}

/**
 * The re-run set, upstream first: the seeds (sorted), then breadth first along the edges, each
 * contract once with the first reason found. Dependency cycles are refused when they would form,
 * but artifact edges can loop; the visited set ends any walk.
 */
export function reRunSet(contracts: ContractState[], producers: Producers, seeds: string[]): ReRunStep[] {
  const edges = downstreamEdges(contracts, producers);
  const steps: ReRunStep[] = [];
  const seen = new Set<string>();
  const queue: ReRunStep[] = [...new Set(seeds)].sort().map((id) => ({ id, because: "named in the overrides" }));
  for (const s of queue) seen.add(s.id);
  while (queue.length) {
    const step = queue.shift()!;
    steps.push(step);
    const next = [...(edges.get(step.id) ?? [])].sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
    for (const e of next) {
      if (seen.has(e.to)) continue;
      seen.add(e.to);
      queue.push({ id: e.to, because: e.because });
    }
  }
  return steps;
}

/** A started re-run: who works it, the status the snapshot held it in, and the new versions it waits for. */
export type ReRun = ReRunStep & { assignee: string; snapshot: string; waitsFor: string[] };

/**
 * Starts each contract's new run: the restored run's traces cleared, its criteria window moved to
 * now (only outputs published in the new run count), its deadline restarted, and then ready when
 * its dependencies hold, pending otherwise. An artifact dependency or `artifact_published`
 * criterion on an artifact a re-run contract produces is raised to the artifact's next version,
 * so it waits for the new run's output instead of accepting the old one.
 */
export async function startReRuns(tx: WriteTx, team: string, steps: ReRunStep[], producers: Producers, what: string): Promise<ReRun[]> {
  const reRunIds = new Set(steps.map((s) => s.id));
  const renewed = (artifactId: string, self: string) => [...(producers.get(artifactId) ?? [])].some((p) => p !== self && reRunIds.has(p));
  const nextVersion = async (artifactId: string) =>
    ((await tx.get<{ v: ArtifactRow["latestVersion"] }>(sql`SELECT "latestVersion" AS "v" FROM "Artifact" WHERE "teamId" = ${team} AND "id" = ${artifactId}`))
      ?.v ?? 0) + 1;
  const window = await maxSeq(tx);
  const runs: ReRun[] = [];

  for (const step of steps) {
    const c = await loadContract(tx, team, step.id);
    const waitsFor: string[] = [];
    for (const d of c.dependencies) {
      if (d.type !== "artifact" || !renewed(d.artifactId, c.id)) continue;
      const next = await nextVersion(d.artifactId);
      if ((d.minVersion ?? 1) >= next) continue;
      d.minVersion = next;
      waitsFor.push(`${d.artifactId}@v${next}`);
      await tx.run(
        sql`UPDATE "ContractDependency" SET "minVersion" = ${next} WHERE "contractPk" = ${c.pk} AND "kind" = 'artifact' AND "targetId" = ${d.artifactId}`,
      );
    }
    let criteriaRaised = false;
    for (const k of c.acceptanceCriteria) {
      if (k.type !== "artifact_published" || !renewed(k.artifactId, c.id)) continue;
      const next = await nextVersion(k.artifactId);
      if ((k.minVersion ?? 1) >= next) continue;
      k.minVersion = next;
      criteriaRaised = true;
      if (!waitsFor.includes(`${k.artifactId}@v${next}`)) waitsFor.push(`${k.artifactId}@v${next}`);
    }

    const snapshotStatus = c.status;
    const deadline = c.timeoutMs ? new Date(tx.now.getTime() + c.timeoutMs) : null;
    const to = (await dependenciesSatisfied(tx, c)) ? "ready" : "pending";
    const reason = `re-run by ${what}: ${step.because}${waitsFor.length ? `; waits for ${waitsFor.join(", ")} from the new run` : ""}`;
    await setStatus(tx, c, to, reason, {
      sets: sql`"windowStartSeq" = ${window}, "deadlineAt" = ${deadline}, "startedAt" = NULL, "completedAt" = NULL, "pinnedInputs" = NULL, "outputs" = NULL${criteriaRaised ? sql`, "acceptanceCriteria" = ${JSON.stringify(c.acceptanceCriteria)}` : EMPTY}`,
      payload: { operation: "replay", because: step.because, waitsFor },
    });
    runs.push({ ...step, assignee: c.assignee, snapshot: snapshotStatus, waitsFor });
  }
  return runs;
}
