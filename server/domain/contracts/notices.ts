/**
 * Contract notices (docs/notices.md): when a contract is created for a member, becomes ready,
 * is reopened, reassigned, or moved by a rollback or replay, the members concerned find it in
 * their inbox (kind `contract`), from the principal that caused it, live session or not; the
 * operator's inbox gets the creations others made (the operator feed).
 *
 * The domain notes each contract before it changes; before the transaction commits
 * (`tx.beforeCommit`), the notes are summed up: per contract its net change in the transaction
 * (created, made ready and auto-completed in one go reads "completed", not "start it"), per
 * recipient one message however many contracts a cascade moved. A message that gives its
 * recipient something to do is marked actionable, which is what wakes a live member
 * (server/supervisor/wakeups.ts): one turn per transaction at most, and none for a new contract
 * that is only pending.
 */
import type { WriteTx } from "../../db/database.ts";
import { MAX_MESSAGE_CHARS, deliver } from "../chat/messages.ts";
import { OPERATOR } from "../principal.ts";
import { findContracts, type LoadedContract } from "./contracts.repo.ts";
import { creationLine, holderLine, loserLine, targetsOf, type ContractPoint } from "./notice-lines.ts";

type Note = { team: string; id: string; before: ContractPoint | null; created: boolean; reopen: { reason: string } | null };

class Notes {
  readonly contracts = new Map<string, Note>();
  /** Per team, the rollback or replay that moved its contracts, e.g. "The rollback to snapshot 's' by operator". */
  readonly rewinds = new Map<string, string>();
  via: string | null = null;

  note(team: string, id: string, before: ContractPoint | null): Note {
    const key = JSON.stringify([team, id]);
    let n = this.contracts.get(key);
    // The first note holds the state before the transaction touched the contract.
    if (!n) this.contracts.set(key, (n = { team, id, before, created: false, reopen: null }));
    return n;
  }
}

const notesOf = new WeakMap<WriteTx, Notes>();

function notes(tx: WriteTx): Notes {
  let n = notesOf.get(tx);
  if (!n) {
    const fresh = new Notes();
    notesOf.set(tx, (n = fresh));
    tx.beforeCommit(() => sendNotices(tx, fresh));
  }
  return n;
}

type Contract = { team: string; id: string; status: string; assignee: string };
const pointOf = (c: Contract): ContractPoint => ({ status: c.status, assignee: c.assignee });

/** Before any change to an existing contract (status, assignee). */
export function noteChange(tx: WriteTx, c: Contract): void {
  notes(tx).note(c.team, c.id, pointOf(c));
}

export function noteCreated(tx: WriteTx, team: string, id: string): void {
  notes(tx).note(team, id, null).created = true;
}

export function noteReopen(tx: WriteTx, c: Contract, reason: string): void {
  notes(tx).note(c.team, c.id, pointOf(c)).reopen = { reason };
}

/** The route a change took when it is not its actor's own command, e.g. `pipeline:ci-loop`. */
export function noteVia(tx: WriteTx, via: string): void {
  notes(tx).via = via;
}

export type Move = { id: string; before: ContractPoint | null; after: ContractPoint | null };

/**
 * A rollback or replay replaces the team's contracts wholesale, then resolves them again: its
 * moves (state before the rewind → after it) are the whole story, so they replace whatever the
 * resolution steps noted. Returns the members who will be told.
 */
export function noteRewind(tx: WriteTx, team: string, moves: Move[], what: string, actor: string): Set<string> {
  const n = notes(tx);
  for (const [key, note] of n.contracts) if (note.team === team) n.contracts.delete(key);
  n.rewinds.set(team, what);
  const told = new Set<string>();
  for (const m of moves) {
    n.note(team, m.id, m.before);
    for (const t of targetsOf(m.before, m.after, actor, false)) told.add(t.to);
  }
  return told;
}

type Mail = { lines: string[]; actionable: boolean };

function compose(lines: string[], rewind: string | undefined): string {
  if (!rewind && lines.length === 1) return lines[0];
  let text = rewind ? `${rewind} changed your contracts:` : `${lines.length} contract notices:`;
  for (const [i, line] of lines.entries()) {
    const more = `\n… and ${lines.length - i} more`;
    if (text.length + line.length + 3 + more.length > MAX_MESSAGE_CHARS) return text + more;
    text += `\n- ${line}`;
  }
  return text;
}

async function sendNotices(tx: WriteTx, n: Notes): Promise<void> {
  const mail = new Map<string, Map<string, Mail>>();
  const post = (team: string, to: string, line: string, actionable: boolean) => {
    const box = mail.get(team) ?? mail.set(team, new Map()).get(team)!;
    const m = box.get(to) ?? box.set(to, { lines: [], actionable: false }).get(to)!;
    m.lines.push(line);
    m.actionable ||= actionable;
  };
  // The contracts as they are now, in one query per team: a cascade notes thousands.
  const ids = new Map<string, string[]>();
  for (const note of n.contracts.values()) (ids.get(note.team) ?? ids.set(note.team, []).get(note.team)!).push(note.id);
  const current = new Map<string, Map<string, LoadedContract>>();
  for (const [team, list] of ids) current.set(team, await findContracts(tx, team, list));
  for (const note of n.contracts.values()) {
    const now = current.get(note.team)!.get(note.id) ?? null;
    const cause = { actor: tx.principal, via: n.via, rewind: n.rewinds.has(note.team), created: note.created, reopen: note.reopen };
    for (const t of targetsOf(note.before, now && pointOf(now), tx.principal, note.created || note.reopen !== null)) {
      post(note.team, t.to, t.as === "holder" ? holderLine(now!, note.before, cause) : loserLine(note.id, note.before!, now, cause), t.actionable);
    }
    if (note.created && now && tx.principal !== OPERATOR.name) post(note.team, OPERATOR.name, creationLine(now, cause), false);
  }
  for (const [team, box] of mail) {
    for (const [to, m] of box) {
      await deliver(tx, { team, from: tx.principal, to: [to], kind: "contract", text: compose(m.lines, n.rewinds.get(team)), actionable: m.actionable });
    }
  }
}
