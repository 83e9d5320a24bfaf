/**
 * Whether a contract's dependencies are satisfied and its acceptance criteria hold (docs/domain.md#acceptance-criteria).
 *
 * Evidence about the work itself (outputs, test results) only counts when it was published
 * after the contract's current attempt began (`windowStartSeq`: when it became ready or was
 * reopened), so an old passing test run cannot complete a reopened contract.
 *
 * One evaluator, fed by `Facts`: what the rules read, loaded for many contracts at once (a
 * resolution wave, docs/domain.md#resolution) or for one (an explanation, a start).
 */
import type { Sql } from "../../db/connection.ts";
import { EMPTY, inList, sql } from "../../db/sql.ts";
import { jsonColumn, jsonColumnOrNull, type ArtifactVersionRow, type ContractRow } from "../../db/rows.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import { ContractStatus, type Criterion } from "../../../lib/api/contracts.ts";
import { parseTestResults } from "../artifacts/well-known-types.ts";
import { currentVersions, type CurrentVersion, type PinnedRef } from "../artifacts/refs.ts";
import { Pinned, type LoadedContract } from "./contracts.repo.ts";

export type Unmet = { criterion: Criterion; reason: string };

/** What another contract's rules see of a contract. */
export type ContractFact = { status: ContractStatus; outputs: PinnedRef[] | null };
/** What the current attempt produced: per expected output the newest match, and what was published under the contract. */
type Evidence = { matched: Array<PinnedRef | null>; under: PinnedRef[] };

/**
 * `dependencies`: statuses and outputs of the contracts depended on, current versions of the artifacts;
 * `criteria`: the same for the criteria; `evidence`: what the attempt produced (test results, outputs).
 */
export type Need = { dependencies?: boolean; criteria?: boolean; evidence?: boolean };

const ref = (r: PinnedRef): PinnedRef => ({ artifactId: r.artifactId, version: r.version, seq: r.seq });

function known<K, V>(map: Map<K, V>, key: K, what: string): V {
  if (!map.has(key)) throw new Error(`${what} was not loaded before the criteria were evaluated`);
  return map.get(key)!;
}

export class Facts {
  private readonly contracts = new Map<string, ContractFact | null>();
  private readonly versions = new Map<string, CurrentVersion | null>();
  private readonly tests = new Map<string, CurrentVersion | null>();
  private readonly evidence = new Map<number, Evidence>();

  /**
   * `lastSeq`, when given, is the newest publish and nothing will be published while these facts
   * are used (a resolution drain): an attempt that began at or after it has produced nothing yet,
   * which needs no query.
   */
  constructor(
    private readonly s: Sql,
    readonly team: string,
    readonly lastSeq: number | null = null,
  ) {}

  emptyWindow(c: LoadedContract): boolean {
    return this.lastSeq !== null && c.windowStartSeq >= this.lastSeq;
  }

  /** What is known in memory wins over the database: a drain states each contract it loads or moves. */
  know(id: string, fact: ContractFact): void {
    this.contracts.set(id, fact);
  }

  contract(id: string): ContractFact | null {
    return known(this.contracts, id, `contract '${id}'`);
  }

  /** Loads what `cs` need and is not known yet: one query per kind, plus one per expected output of an attempt already under way. */
  async load(cs: LoadedContract[], need: Need): Promise<void> {
    const contractIds = new Set<string>();
    const artifactIds = new Set<string>();
    const testIds = new Set<string>();
    const attempts: LoadedContract[] = [];
    for (const c of cs) {
      if (need.dependencies) {
        for (const d of c.dependencies) {
          if (d.type === "contract") contractIds.add(d.contractId);
          else artifactIds.add(d.artifactId);
        }
      }
      if (need.criteria) {
        for (const k of effectiveCriteria(c)) {
          if (k.type === "contract_completed") contractIds.add(k.contractId);
          if (k.type === "artifact_published") artifactIds.add(k.artifactId);
        }
      }
      if (need.evidence && !this.emptyWindow(c)) {
        for (const k of effectiveCriteria(c)) if (k.type === "tests_passing") testIds.add(k.artifactId);
        attempts.push(c);
      }
    }
    const newContracts = [...contractIds].filter((id) => !this.contracts.has(id));
    if (newContracts.length) {
      const rows = await this.s.all<Pick<ContractRow, "id" | "status" | "outputs">>(
        sql`SELECT "id","status","outputs" FROM "Contract" WHERE "teamId" = ${this.team} AND "id" IN ${inList(newContracts)}`,
      );
      for (const id of newContracts) this.contracts.set(id, null);
      for (const r of rows) this.contracts.set(r.id, { status: ContractStatus.parse(r.status), outputs: jsonColumnOrNull(Pinned, r.outputs) });
    }
    await this.loadVersions(this.versions, artifactIds, false);
    await this.loadVersions(this.tests, testIds, true);
    const unknown = attempts.filter((c) => !this.evidence.has(c.pk));
    if (unknown.length) {
      const under = await publishedUnder(this.s, this.team, unknown);
      for (const c of unknown) this.evidence.set(c.pk, { matched: await matchOutputs(this.s, c), under: under.get(c.id) ?? [] });
    }
  }

  private async loadVersions(into: Map<string, CurrentVersion | null>, ids: Set<string>, withData: boolean): Promise<void> {
    const missing = [...ids].filter((id) => !into.has(id));
    if (!missing.length) return;
    const found = await currentVersions(this.s, this.team, missing, withData);
    for (const id of missing) into.set(id, found.get(id) ?? null);
  }

  version(id: string): CurrentVersion | null {
    return known(this.versions, id, `artifact '${id}'`);
  }

  /** The newest test results when the window is open, or null: `emptyWindow` attempts have none. */
  testResults(c: LoadedContract, id: string): CurrentVersion | null | "none in this attempt" {
    return this.emptyWindow(c) ? "none in this attempt" : known(this.tests, id, `test results '${id}'`);
  }

  attempt(c: LoadedContract): Evidence {
    if (this.emptyWindow(c)) return { matched: c.expectedOutputs.map(() => null), under: [] };
    return known(this.evidence, c.pk, `the evidence of contract '${c.id}'`);
  }
}

/** For each expected output, the newest matching version inside the contract's window. */
async function matchOutputs(s: Sql, c: LoadedContract): Promise<Array<PinnedRef | null>> {
  const found: Array<PinnedRef | null> = [];
  for (const o of c.expectedOutputs) {
    const row = await s.get<PinnedRef>(
      sql`SELECT a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
       WHERE a."teamId" = ${c.team} AND a."type" = ${o.artifactType} ${o.artifactId ? sql`AND a."id" = ${o.artifactId}` : EMPTY} AND v."seq" > ${c.windowStartSeq} AND v."status" = 'active'
         AND (v."contractId" IS NULL OR v."contractId" = ${c.id})
       ORDER BY v."seq" DESC LIMIT 1`,
    );
    found.push(row ? ref(row) : null);
  }
  return found;
}

/** Per contract, the newest active version of each artifact published under it inside its window. */
async function publishedUnder(s: Sql, team: string, cs: LoadedContract[]): Promise<Map<string, PinnedRef[]>> {
  const rows = await s.all<PinnedRef & { contractId: NonNullable<ArtifactVersionRow["contractId"]> }>(
    // CROSS JOIN keeps SQLite's planner on the (contractId, seq) index: with JOIN it walked every version of the team.
    sql`SELECT v."contractId", a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v CROSS JOIN "Artifact" a
     WHERE a."pk" = v."artifactPk" AND a."teamId" = ${team} AND v."contractId" IN ${inList(cs.map((c) => c.id))} AND v."status" = 'active'
       AND v."version" = (SELECT MAX(v2."version") FROM "ArtifactVersion" v2 WHERE v2."artifactPk" = v."artifactPk" AND v2."contractId" = v."contractId" AND v2."status" = 'active')`,
  );
  const windows = new Map(cs.map((c) => [c.id, c.windowStartSeq]));
  const under = new Map<string, PinnedRef[]>();
  for (const r of rows) if (r.seq > windows.get(r.contractId)!) (under.get(r.contractId) ?? under.set(r.contractId, []).get(r.contractId)!).push(ref(r));
  return under;
}

/** The criteria that apply: the given ones, or all_outputs_published when outputs are expected. */
export function effectiveCriteria(c: LoadedContract): Criterion[] {
  if (c.acceptanceCriteria.length) return c.acceptanceCriteria;
  return c.expectedOutputs.length ? [{ type: "all_outputs_published" }] : [];
}

const versionGap = (id: string, min: number, v: CurrentVersion | null) => `artifact '${id}' needs v${min}, has ${v ? `v${v.version}` : "no version"}`;
const contractGap = (id: string, f: ContractFact | null) => `contract '${id}' is ${f?.status ?? "missing"}`;

export function unsatisfiedDependenciesIn(c: LoadedContract, facts: Facts): string[] {
  const missing: string[] = [];
  for (const d of c.dependencies) {
    if (d.type === "contract") {
      const f = facts.contract(d.contractId);
      if (f?.status !== "completed") missing.push(contractGap(d.contractId, f));
    } else {
      const v = facts.version(d.artifactId);
      const min = d.minVersion ?? 1;
      if (!v || v.version < min) missing.push(versionGap(d.artifactId, min, v));
    }
  }
  return missing;
}

function check(c: LoadedContract, k: Criterion, facts: Facts): string | null {
  switch (k.type) {
    case "artifact_published": {
      const v = facts.version(k.artifactId);
      const min = k.minVersion ?? 1;
      return v && v.version >= min ? null : versionGap(k.artifactId, min, v);
    }
    case "contract_completed": {
      const f = facts.contract(k.contractId);
      return f?.status === "completed" ? null : contractGap(k.contractId, f);
    }
    case "tests_passing": {
      const row = facts.testResults(c, k.artifactId);
      if (row === "none in this attempt") return `no test results in '${k.artifactId}' since this attempt began`;
      if (!row) return `no test results in '${k.artifactId}' yet`;
      if (row.type !== "test-results") return `artifact '${k.artifactId}' is ${row.type}, not test-results`;
      if (row.seq <= c.windowStartSeq) return `'${k.artifactId}@v${row.version}' predates this attempt; publish new test results`;
      const r = parseTestResults(jsonColumn(JsonValue, row.data!));
      if (!r.success) return `'${k.artifactId}@v${row.version}' is not valid test-results data`;
      const rate = r.data.total === 0 ? 0 : r.data.passed / r.data.total;
      if (r.data.failed > k.maxFailed) return `${r.data.failed} failing (at most ${k.maxFailed} allowed)`;
      if (rate < k.minPassRate) return `pass rate ${rate.toFixed(3)} is below ${k.minPassRate}`;
      return null;
    }
    case "all_outputs_published": {
      const found = facts.attempt(c).matched;
      const missing = c.expectedOutputs
        .filter((o, i) => o.required && !found[i])
        .map((o) => (o.artifactId ? `${o.artifactType} '${o.artifactId}'` : o.artifactType));
      return missing.length ? `missing output${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}` : null;
    }
  }
}

export function unmetCriteriaIn(c: LoadedContract, facts: Facts): Unmet[] {
  const unmet: Unmet[] = [];
  for (const criterion of effectiveCriteria(c)) {
    const reason = check(c, criterion, facts);
    if (reason) unmet.push({ criterion, reason });
  }
  return unmet;
}

/** Auto-completion needs at least one criterion, all of them met. */
export function autoCompletableIn(c: LoadedContract, facts: Facts): boolean {
  const criteria = effectiveCriteria(c);
  return criteria.length > 0 && criteria.every((k) => check(c, k, facts) === null);
}

/** Outputs recorded on completion: matched expected outputs plus anything published under it, by publish order. */
export function outputsIn(c: LoadedContract, facts: Facts): PinnedRef[] {
  const { matched, under } = facts.attempt(c);
  const out = new Map<number, PinnedRef>();
  for (const m of matched) if (m) out.set(m.seq, m);
  for (const u of under) out.set(u.seq, u);
  return [...out.values()].sort((a, b) => a.seq - b.seq);
}

/** The input artifact versions of a contract: its artifact dependencies' current versions and its contract dependencies' outputs. */
export function inputsIn(c: LoadedContract, facts: Facts): PinnedRef[] {
  const pinned: PinnedRef[] = [];
  for (const d of c.dependencies) {
    if (d.type === "artifact") {
      const v = facts.version(d.artifactId);
      if (v) pinned.push(ref(v));
    } else {
      pinned.push(...(facts.contract(d.contractId)?.outputs ?? []));
    }
  }
  return pinned;
}

/** One contract's facts, for the callers outside a resolution. */
async function factsFor(s: Sql, c: LoadedContract, need: Need): Promise<Facts> {
  const facts = new Facts(s, c.team);
  await facts.load([c], need);
  return facts;
}

export async function dependenciesSatisfied(s: Sql, c: LoadedContract): Promise<boolean> {
  return unsatisfiedDependenciesIn(c, await factsFor(s, c, { dependencies: true })).length === 0;
}

export async function unmetCriteria(s: Sql, c: LoadedContract): Promise<Unmet[]> {
  return unmetCriteriaIn(c, await factsFor(s, c, { criteria: true, evidence: true }));
}

export async function resolveInputs(s: Sql, c: LoadedContract): Promise<PinnedRef[]> {
  return inputsIn(c, await factsFor(s, c, { dependencies: true }));
}
