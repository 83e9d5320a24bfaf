/**
 * Live transcript lines, pushed to /ws after they are stored, and the model's text as it streams
 * (never stored: the complete assistant line that follows holds the same text). Separate from the event log on
 * purpose: a session emits many stream events per turn, and they are already durable in
 * TranscriptEntry, where a reconnecting client reads what it missed.
 *
 * The feed also keeps the text streamed so far of each session's message in flight, so a client that
 * subscribes mid-message starts from its first word (see docs/sessions.md#live-output).
 */
import { endsTextInFlight } from "../../lib/ws.ts";
import type { SessionRow } from "../db/rows.ts";
import type { StoredLine } from "../domain/sessions/runtime.ts";
import type { OutputPiece } from "../../lib/api/runnable.ts";

/** Who owns the session, so /ws can tell who may see its lines without reading the database. */
export type TranscriptOwner = Pick<SessionRow, "name" | "principal" | "spawnedBy">;

type Of = { session: string; team: string; owner: TranscriptOwner };
/** What a session's runner publishes: a stored line, a piece of the model's text, or a stored piece of its work tree's setup, run or archive output. */
export type SessionOutput = Of & ({ entry: StoredLine } | { textDelta: string } | { output: OutputPiece });
/** `textEnded`: the message in flight will never complete (its process is gone); what was streamed of it is void. */
export type TranscriptPush = SessionOutput | (Of & { textEnded: true });
type Listener = (push: TranscriptPush) => void;

/** The text streamed so far of one session's message in flight; `elided` leading characters went over the cap. */
export type TextSoFar = Of & { text: string; elided: number };

// Per session, in UTF-16 units: far above a normal message, small enough for every live session at once.
export const TEXT_SO_FAR_CAP = 64 * 1024;
// Over the cap the oldest part goes, down to this, so trimming happens once per many pieces, not on each.
const TRIM_TO = (TEXT_SO_FAR_CAP * 3) / 4;

export class TranscriptFeed {
  private readonly listeners = new Set<Listener>();
  private readonly inFlight = new Map<string, TextSoFar>();

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  publish(push: SessionOutput): void {
    this.keep(push);
    this.fanOut(push);
  }

  /** Every session's text so far; read it and start following in the same tick (publish is synchronous). */
  textsSoFar(): Iterable<TextSoFar> {
    return this.inFlight.values();
  }

  /** The session's process is gone (ended, killed, deleted): its message in flight will never complete. */
  ended(session: string): void {
    const soFar = this.inFlight.get(session);
    if (!soFar) return;
    this.inFlight.delete(session);
    this.fanOut({ session, team: soFar.team, owner: soFar.owner, textEnded: true });
  }

  private fanOut(push: TranscriptPush): void {
    for (const fn of this.listeners) {
      try {
        fn(push);
      } catch (e) {
        console.error("[teamhub] transcript listener failed:", e);
      }
    }
  }

  private keep(push: SessionOutput): void {
    if ("output" in push) return;
    if ("entry" in push) {
      if (endsTextInFlight(push.entry)) this.inFlight.delete(push.session);
      return;
    }
    const known = this.inFlight.get(push.session);
    const soFar = known ?? { session: push.session, team: push.team, owner: push.owner, text: "", elided: 0 };
    soFar.text += push.textDelta;
    if (soFar.text.length > TEXT_SO_FAR_CAP) {
      let cut = soFar.text.length - TRIM_TO;
      // Never split a surrogate pair: the kept text must stay valid UTF-16.
      if (isLowSurrogate(soFar.text.charCodeAt(cut))) cut++;
      soFar.text = soFar.text.slice(cut);
      soFar.elided += cut;
    }
    if (!known) this.inFlight.set(push.session, soFar);
  }
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
