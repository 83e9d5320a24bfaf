/**
 * After a rollback or replay, every member whose contracts changed (status or assignee, or a
 * contract appeared or vanished) gets one system message listing them: one wake-up per member,
 * not one per contract, however many contracts moved.
 */
import type { WriteTx } from "../../db/database.ts";
import { MAX_MESSAGE_CHARS, deliver } from "../chat/messages.ts";
import type { Principal } from "../principal.ts";

export type ContractPoint = { id: string; status: string; assignee: string };
export type ContractMove = { id: string; status: { from: string | null; to: string | null }; assignee: { from: string | null; to: string | null } };

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

function linesByRecipient(moves: ContractMove[]): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  const add = (to: string, line: string) => {
    const list = lines.get(to);
    if (list) list.push(line);
    else lines.set(to, [line]);
  };
  for (const m of moves) {
    const { from, to } = m.assignee;
    if (to === null) add(from!, `${m.id}: removed (it is not in the restored state)`);
    else if (from === null) add(to, `${m.id}: restored, ${m.status.to}`);
    else if (from !== to) {
      add(to, `${m.id}: now assigned to you (was ${from}), ${m.status.to}`);
      add(from, `${m.id}: no longer assigned to you (now ${to})`);
    } else add(to, `${m.id}: ${m.status.from} → ${m.status.to}`);
  }
  return lines;
}

/** Delivers the messages; returns how many members were notified. */
export async function notifyAssignees(tx: WriteTx, actor: Principal, team: string, moves: ContractMove[], what: string): Promise<number> {
  const byRecipient = linesByRecipient(moves);
  for (const [recipient, lines] of byRecipient) {
    let text = `${what} changed your contracts:`;
    for (const [i, line] of lines.entries()) {
      const more = `\n… and ${lines.length - i} more`;
      if (text.length + line.length + 3 + more.length > MAX_MESSAGE_CHARS) {
        text += more;
        break;
      }
      text += `\n- ${line}`;
    }
    await deliver(tx, { team, from: actor.name, to: [recipient], kind: "system", text });
  }
  return byRecipient.size;
}
