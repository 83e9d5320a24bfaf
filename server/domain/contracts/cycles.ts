/**
 * Contracts wait on other contracts through dependencies and `contract_completed` criteria.
 * Such waits must never form a cycle: a cycle would deadlock its members and, were it allowed
 * to resolve, cascade forever. Checked when a contract is created and when a dependency is added.
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow, ContractWatchRow } from "../../db/rows.ts";

/**
 * The path `to → … → from` if `to` already waits on `from` (directly or not), so that making
 * `from` wait on `to` would close a cycle; null otherwise.
 */
export async function cyclePath(s: Sql, team: string, from: string, to: string): Promise<string[] | null> {
  if (from === to) return [from, from];
  const edges = await s.all<Pick<ContractWatchRow, "target"> & { source: ContractRow["id"] }>(
    sql`SELECT c."id" AS "source", w."target" FROM "ContractWatch" w JOIN "Contract" c ON c."pk" = w."contractPk"
     WHERE w."teamId" = ${team} AND w."kind" = 'contract'`,
  );
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const parent = new Map<string, string>([[to, ""]]);
  const queue = [to];
  while (queue.length) {
    const node = queue.shift()!;
    if (node === from) {
      const path = [from];
      for (let p = parent.get(from)!; p; p = parent.get(p)!) path.unshift(p);
      return [from, ...path];
    }
    for (const n of next.get(node) ?? []) {
      if (!parent.has(n)) {
        parent.set(n, node);
        queue.push(n);
      }
    }
  }
  return null;
}
