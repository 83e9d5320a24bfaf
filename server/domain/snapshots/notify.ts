/**
 * After a rollback or replay, every member whose contracts changed (status or assignee, or a
 * contract appeared or vanished) is told in one message listing them: one message and at most
 * one wake-up per member, not one per contract, however many contracts moved.
 */
import type { WriteTx } from "../../db/database.ts";
import type { ContractRow } from "../../db/rows.ts";
import { noteRewind } from "../contracts/notices.ts";
import type { Principal } from "../principal.ts";
import type { ContractMove } from "../../../lib/api/snapshots.ts";

export type ContractPoint = Pick<ContractRow, "id" | "status" | "assignee">;

/** Contracts whose existence, status or assignee differs, ordered by id. */
export function contractMoves(before: ContractPoint[], after: ContractPoint[]): ContractMove[] {
  const old = new Map(before.map((c) => [c.id, c]));
  const now = new Map(after.map((c) => [c.id, c]));
  const ids = [...new Set([...old.keys(), ...now.keys()])].sort();
  const moves: ContractMove[] = [];
  for (const id of ids) {
    const a = old.get(id);
    const b = now.get(id);
    if (a && b && a.status === b.status && a.assignee === b.assignee) continue;
    moves.push({ id, status: { from: a?.status ?? null, to: b?.status ?? null }, assignee: { from: a?.assignee ?? null, to: b?.assignee ?? null } });
  }
  return moves;
}

/**
 * Hands the moves to the transaction's contract notices (contracts/notices.ts), which tell each
 * member once, together with anything else the transaction did to their contracts. Returns how
 * many members will be told.
 */
export function notifyAssignees(tx: WriteTx, actor: Principal, team: string, moves: ContractMove[], what: string): number {
  const point = (m: ContractMove, side: "from" | "to") => (m.assignee[side] === null ? null : { status: m.status[side]!, assignee: m.assignee[side]! });
  return noteRewind(
    tx,
    team,
    moves.map((m) => ({ id: m.id, before: point(m, "from"), after: point(m, "to") })),
    what,
    actor.name,
  ).size;
}
