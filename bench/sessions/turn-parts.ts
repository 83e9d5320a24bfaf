/**
 * Where the time of a sent turn went, from the hub's own records (the event log and the transcript):
 * - the wait: from the send's queue write (its `session.message_queued` event) to the turn's start, which is the queue
 *   and admission (a place under the live-session limit) and, for a process that gave up its place, its start again;
 * - the CLI: from the hub writing the message to the hub storing the CLI's result line, of which the CLI's start of the
 *   turn (up to its `system/init` line for it; a restarted process spends its start-up there);
 * - the hub: what is left of the send's wall time, which is the hub's own work: the send up to its queue write, the
 *   turn's start up to the message written, and the result stored up to the answer.
 */
import { check } from "../lib/check.ts";

/** As the JSON answers carry them: times are ISO strings. */
type Interaction = { id: number; n: number; startedAt: string };
type Entry = { id: number; interactionId: number | null; at: string; direction: "in" | "out"; type: string; subtype: string | null };
type Event = { id: number; at: string; payload: { interactionId?: number } };

export type SentTurn = { session: string; wallMs: number; interaction: Interaction };
export type TurnParts = { waitMs: number; cliMs: number; cliStartMs: number; hubMs: number };

const PAGE = 500;

async function pages<T extends { id: number }>(url: string, key: string): Promise<T[]> {
  const all: T[] = [];
  for (;;) {
    const after = all.at(-1)?.id;
    const res = await fetch(`${url}${url.includes("?") ? "&" : "?"}limit=${PAGE}${after === undefined ? "" : `&after=${after}`}`);
    check(res.ok, `GET ${url}`);
    const page = ((await res.json()) as Record<string, T[]>)[key];
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

export async function turnParts(hub: string, turns: SentTurn[]): Promise<TurnParts[]> {
  const queued = new Map<number, number>();
  for (const e of await pages<Event>(`${hub}/api/events?type=session.message_queued`, "events")) queued.set(e.payload.interactionId!, Date.parse(e.at));
  const transcripts = new Map<string, Entry[]>();
  for (const session of new Set(turns.map((t) => t.session)))
    transcripts.set(session, await pages<Entry>(`${hub}/api/sessions/${session}/transcript`, "entries"));
  return turns.map(({ session, wallMs, interaction }) => {
    const own = transcripts.get(session)!.filter((e) => e.interactionId === interaction.id);
    const at = (what: string, pick: (e: Entry) => boolean) => {
      const e = own.find(pick);
      check(e !== undefined, `${session} turn ${interaction.n}: its ${what} in the transcript`);
      return Date.parse(e.at);
    };
    const written = at("message", (e) => e.direction === "in");
    const init = at("init line", (e) => e.type === "system" && e.subtype === "init");
    const result = at("result", (e) => e.type === "result");
    const queuedAt = queued.get(interaction.id);
    check(queuedAt !== undefined, `${session} turn ${interaction.n}: its session.message_queued event`);
    const waitMs = Math.max(0, Date.parse(interaction.startedAt) - queuedAt);
    const cliMs = result - written;
    return { waitMs, cliMs, cliStartMs: init - written, hubMs: Math.max(0, wallMs - waitMs - cliMs) };
  });
}
