/**
 * Loading contracts and turning rows into views. JSON columns are parsed with zod on read, so a
 * corrupted column is a loud error here rather than a silent wrong answer somewhere else.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import { EMPTY, inList, sql, type Query } from "../../db/sql.ts";
import { jsonColumn, jsonColumnOrNull, type ContractRow, type ContractDependencyRow } from "../../db/rows.ts";
import { notFound } from "../../errors.ts";
import { ContractStatus, Criterion, ExpectedOutput, PinnedVersion, Priority, type ContractView, type Dependency } from "../../../lib/api/contracts.ts";

/** The JSON columns of a contract row. */
export const Pinned = z.array(PinnedVersion);
export const Inputs = z.record(z.string(), z.unknown());
export const Outputs = z.array(ExpectedOutput);
export const Criteria = z.array(Criterion);

/** The view plus what the domain needs internally. */
export type LoadedContract = ContractView & { pk: number; windowStartSeq: number };

export function toDependency(d: Pick<ContractDependencyRow, "kind" | "targetId" | "minVersion">): Dependency {
  return d.kind === "contract"
    ? { type: "contract", contractId: d.targetId }
    : { type: "artifact", artifactId: d.targetId, ...(d.minVersion ? { minVersion: d.minVersion } : {}) };
}

export function toLoaded(row: ContractRow, deps: Pick<ContractDependencyRow, "kind" | "targetId" | "minVersion">[]): LoadedContract {
  return {
    pk: row.pk,
    windowStartSeq: row.windowStartSeq,
    id: row.id,
    team: row.teamId,
    title: row.title,
    description: row.description,
    assigner: row.assigner,
    assignee: row.assignee,
    inputs: jsonColumn(Inputs, row.inputs),
    dependencies: deps.map(toDependency),
    expectedOutputs: jsonColumn(Outputs, row.expectedOutputs),
    acceptanceCriteria: jsonColumn(Criteria, row.acceptanceCriteria),
    priority: Priority.parse(row.priority),
    timeoutMs: row.timeoutMs,
    deadlineAt: row.deadlineAt,
    maxRetries: row.maxRetries,
    retryCount: row.retryCount,
    status: ContractStatus.parse(row.status),
    statusReason: row.statusReason,
    pinnedInputs: jsonColumnOrNull(Pinned, row.pinnedInputs),
    outputs: jsonColumnOrNull(Pinned, row.outputs),
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toView(c: LoadedContract): ContractView {
  const { pk: _pk, windowStartSeq: _w, ...view } = c;
  return view;
}

const dependenciesOf = (pk: number) => sql`SELECT "kind","targetId","minVersion" FROM "ContractDependency" WHERE "contractPk" = ${pk} ORDER BY "id"`;

export async function loadByPk(s: Sql, pk: number): Promise<LoadedContract> {
  const row = await s.get<ContractRow>(sql`SELECT * FROM "Contract" WHERE "pk" = ${pk}`);
  if (!row) throw new Error(`contract row ${pk} vanished inside its transaction`);
  return toLoaded(row, await s.all(dependenciesOf(pk)));
}

export async function findContract(s: Sql, team: string, id: string): Promise<LoadedContract | undefined> {
  const row = await s.get<ContractRow>(sql`SELECT * FROM "Contract" WHERE "teamId" = ${team} AND "id" = ${id}`);
  return row ? toLoaded(row, await s.all(dependenciesOf(row.pk))) : undefined;
}

/**
 * Many contracts with their dependencies in one query: `from` joins the contract table as `c` to
 * whatever `where` filters on. Also returns the rows, for the columns `select` adds (a row per
 * dependency, so a contract appears once per dependency and per row of the other tables it matched).
 */
export async function loadJoined<R extends object>(
  s: Sql,
  from: Query,
  where: Query,
  select?: Query,
): Promise<{ contracts: Map<number, LoadedContract>; rows: Array<R & ContractRow> }> {
  type Row = R &
    ContractRow & {
      depId: ContractDependencyRow["id"] | null;
      depKind: ContractDependencyRow["kind"];
      depTarget: ContractDependencyRow["targetId"];
      depMinVersion: ContractDependencyRow["minVersion"];
    };
  const rows = await s.all<Row>(
    sql`SELECT ${select ? sql`${select}, ` : EMPTY}c.*, d."id" AS "depId", d."kind" AS "depKind", d."targetId" AS "depTarget", d."minVersion" AS "depMinVersion"
     FROM ${from} LEFT JOIN "ContractDependency" d ON d."contractPk" = c."pk" WHERE ${where} ORDER BY c."pk", d."id"`,
  );
  const contracts = new Map<number, LoadedContract>();
  for (let i = 0; i < rows.length;) {
    const pk = rows[i].pk;
    const deps: Pick<ContractDependencyRow, "kind" | "targetId" | "minVersion">[] = [];
    let j = i;
    for (let last: number | null = null; j < rows.length && rows[j].pk === pk; j++) {
      const r = rows[j];
      if (r.depId !== null && r.depId !== last) deps.push({ kind: r.depKind, targetId: r.depTarget, minVersion: r.depMinVersion });
      last = r.depId;
    }
    contracts.set(pk, toLoaded(rows[i], deps));
    i = j;
  }
  return { contracts, rows };
}

/** The team's contracts with these ids that exist, by id. */
export async function findContracts(s: Sql, team: string, ids: Iterable<string>): Promise<Map<string, LoadedContract>> {
  const { contracts } = await loadJoined(s, sql`"Contract" c`, sql`c."teamId" = ${team} AND c."id" IN ${inList(ids)}`);
  return new Map([...contracts.values()].map((c) => [c.id, c]));
}

export async function loadContract(s: Sql, team: string, id: string, field = "id"): Promise<LoadedContract> {
  const c = await findContract(s, team, id);
  if (!c) throw notFound("contract", id, field);
  return c;
}
