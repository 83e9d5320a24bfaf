/**
 * Whether a contract's dependencies are satisfied and its acceptance criteria hold (docs/domain.md#acceptance-criteria).
 *
 * Evidence about the work itself (outputs, test results) only counts when it was published
 * after the contract's current attempt began (`windowStartSeq`: when it became ready or was
 * reopened), so an old passing test run cannot complete a reopened contract.
 */
import type { Sql } from "../../db/connection.ts";
import type { Criterion } from "../../../lib/api/contracts.ts";
import { parseTestResults } from "../artifacts/well-known-types.ts";
import { currentVersion, type PinnedRef } from "../artifacts/refs.ts";
import type { LoadedContract } from "./contracts.repo.ts";

export type Unmet = { criterion: Criterion; reason: string };

export async function dependenciesSatisfied(sql: Sql, c: LoadedContract): Promise<boolean> {
  return (await unsatisfiedDependencies(sql, c)).length === 0;
}

export async function unsatisfiedDependencies(sql: Sql, c: LoadedContract): Promise<string[]> {
  const missing: string[] = [];
  for (const d of c.dependencies) {
    if (d.type === "contract") {
      const row = await sql.get<{ status: string }>(`SELECT "status" FROM "Contract" WHERE "teamId" = ? AND "id" = ?`, [c.team, d.contractId]);
      if (row?.status !== "completed") missing.push(`contract '${d.contractId}' is ${row?.status ?? "missing"}`);
    } else {
      const v = await currentVersion(sql, c.team, d.artifactId);
      const min = d.minVersion ?? 1;
      if (!v || v.version < min) missing.push(`artifact '${d.artifactId}' needs v${min}, has ${v ? `v${v.version}` : "no version"}`);
    }
  }
  return missing;
}

/** The criteria that apply: the given ones, or all_outputs_published when outputs are expected. */
export function effectiveCriteria(c: LoadedContract): Criterion[] {
  if (c.acceptanceCriteria.length) return c.acceptanceCriteria;
  return c.expectedOutputs.length ? [{ type: "all_outputs_published" }] : [];
}

/** For each expected output, the newest matching version inside the contract's window. */
export async function matchOutputs(sql: Sql, c: LoadedContract): Promise<Array<PinnedRef | null>> {
  const found: Array<PinnedRef | null> = [];
  for (const o of c.expectedOutputs) {
    const row = await sql.get<PinnedRef>(
      `SELECT a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
       WHERE a."teamId" = ? AND a."type" = ? ${o.artifactId ? `AND a."id" = ?` : ""} AND v."seq" > ? AND v."status" = 'active'
         AND (v."contractId" IS NULL OR v."contractId" = ?)
       ORDER BY v."seq" DESC LIMIT 1`,
      o.artifactId ? [c.team, o.artifactType, o.artifactId, c.windowStartSeq, c.id] : [c.team, o.artifactType, c.windowStartSeq, c.id],
    );
    found.push(row ?? null);
  }
  return found;
}

/** Outputs recorded on completion: matched expected outputs plus anything published under it. */
export async function collectOutputs(sql: Sql, c: LoadedContract): Promise<PinnedRef[]> {
  const out = new Map<number, PinnedRef>();
  for (const m of await matchOutputs(sql, c)) if (m) out.set(m.seq, m);
  const under = await sql.all<PinnedRef>(
    `SELECT a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE a."teamId" = ? AND v."contractId" = ? AND v."seq" > ? AND v."status" = 'active'
       AND v."version" = (SELECT MAX(v2."version") FROM "ArtifactVersion" v2 WHERE v2."artifactPk" = v."artifactPk" AND v2."contractId" = ? AND v2."status" = 'active')`,
    [c.team, c.id, c.windowStartSeq, c.id],
  );
  for (const u of under) out.set(u.seq, u);
  return [...out.values()].sort((a, b) => a.seq - b.seq);
}

async function check(sql: Sql, c: LoadedContract, k: Criterion): Promise<string | null> {
  switch (k.type) {
    case "artifact_published": {
      const v = await currentVersion(sql, c.team, k.artifactId);
      const min = k.minVersion ?? 1;
      return v && v.version >= min ? null : `artifact '${k.artifactId}' needs v${min}, has ${v ? `v${v.version}` : "no version"}`;
    }
    case "contract_completed": {
      const row = await sql.get<{ status: string }>(`SELECT "status" FROM "Contract" WHERE "teamId" = ? AND "id" = ?`, [c.team, k.contractId]);
      return row?.status === "completed" ? null : `contract '${k.contractId}' is ${row?.status ?? "missing"}`;
    }
    case "tests_passing": {
      const row = await sql.get<{ data: string; type: string; seq: number; version: number }>(
        `SELECT v."data", a."type", v."seq", v."version" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
         WHERE a."teamId" = ? AND a."id" = ? AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1`,
        [c.team, k.artifactId],
      );
      if (!row) return `no test results in '${k.artifactId}' yet`;
      if (row.type !== "test-results") return `artifact '${k.artifactId}' is ${row.type}, not test-results`;
      if (row.seq <= c.windowStartSeq) return `'${k.artifactId}@v${row.version}' predates this attempt; publish new test results`;
      const r = parseTestResults(JSON.parse(row.data));
      if (!r.success) return `'${k.artifactId}@v${row.version}' is not valid test-results data`;
      const rate = r.data.total === 0 ? 0 : r.data.passed / r.data.total;
      if (r.data.failed > k.maxFailed) return `${r.data.failed} failing (at most ${k.maxFailed} allowed)`;
      if (rate < k.minPassRate) return `pass rate ${rate.toFixed(3)} is below ${k.minPassRate}`;
      return null;
    }
    case "all_outputs_published": {
      const found = await matchOutputs(sql, c);
      const missing = c.expectedOutputs
        .filter((o, i) => o.required && !found[i])
        .map((o) => (o.artifactId ? `${o.artifactType} '${o.artifactId}'` : o.artifactType));
      return missing.length ? `missing output${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}` : null;
    }
  }
}

export async function unmetCriteria(sql: Sql, c: LoadedContract): Promise<Unmet[]> {
  const unmet: Unmet[] = [];
  for (const criterion of effectiveCriteria(c)) {
    const reason = await check(sql, c, criterion);
    if (reason) unmet.push({ criterion, reason });
  }
  return unmet;
}

/** Auto-completion needs at least one criterion, all of them met. */
export async function autoCompletable(sql: Sql, c: LoadedContract): Promise<boolean> {
  const criteria = effectiveCriteria(c);
  if (criteria.length === 0) return false;
  for (const criterion of criteria) if (await check(sql, c, criterion)) return false;
  return true;
}
