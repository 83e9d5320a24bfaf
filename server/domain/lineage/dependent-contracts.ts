/**
 * The contracts that rely on given artifacts (docs/domain.md#impact), found through the ContractWatch index
 * and told apart by how they use each artifact: as a dependency, in an acceptance criterion, or as
 * an expected output. One entry per (contract, artifact, relation).
 */
import type { Sql } from "../../db/connection.ts";
import type { ContractRow, ContractDependencyRow } from "../../db/rows.ts";
import type { ContractRelation, DependentContract } from "../../../lib/api/lineage.ts";
import { toLoaded, type LoadedContract } from "../contracts/contracts.repo.ts";
import { byText, groupBy } from "./graph.ts";
import { inList, sql } from "../../db/sql.ts";

const RELATIONS: ContractRelation[] = ["dependency", "criterion", "output"];

/** Every artifact a contract names, with how it uses it. */
function usesOf(c: LoadedContract): Array<[ContractRelation, string]> {
  return [
    ...c.dependencies.flatMap((d): Array<[ContractRelation, string]> => (d.type === "artifact" ? [["dependency", d.artifactId]] : [])),
    ...c.acceptanceCriteria.flatMap((k): Array<[ContractRelation, string]> => ("artifactId" in k ? [["criterion", k.artifactId]] : [])),
    ...c.expectedOutputs.flatMap((o): Array<[ContractRelation, string]> => (o.artifactId ? [["output", o.artifactId]] : [])),
  ];
}

export async function dependentContracts(s: Sql, team: string, artifactIds: string[]): Promise<DependentContract[]> {
  const rows = await s.all<ContractRow>(
    sql`SELECT * FROM "Contract" WHERE "pk" IN (SELECT w."contractPk" FROM "ContractWatch" w
       WHERE w."teamId" = ${team} AND w."kind" = 'artifact' AND w."target" IN ${inList(artifactIds)})`,
  );
  const dependencies = await s.all<ContractDependencyRow>(
    sql`SELECT * FROM "ContractDependency" WHERE "contractPk" IN ${inList(rows.map((r) => r.pk))} ORDER BY "id"`,
  );
  const dependenciesOf = groupBy(
    dependencies,
    (d) => d.contractPk,
    (d) => d,
  );
  const wanted = new Set(artifactIds);
  const found = new Map<string, DependentContract>();
  for (const row of rows) {
    const c = toLoaded(row, dependenciesOf.get(row.pk) ?? []);
    for (const [relation, artifactId] of usesOf(c)) {
      if (wanted.has(artifactId))
        found.set(`${c.id} ${artifactId} ${relation}`, { contractId: c.id, status: c.status, assignee: c.assignee, artifactId, relation });
    }
  }
  return [...found.values()].sort(
    (a, b) => byText(a.contractId, b.contractId) || byText(a.artifactId, b.artifactId) || RELATIONS.indexOf(a.relation) - RELATIONS.indexOf(b.relation),
  );
}
