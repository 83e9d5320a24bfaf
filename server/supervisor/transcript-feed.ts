/**
 * Live transcript lines, pushed to /ws after they are stored, and the model's text as it streams
 * (never stored: the complete assistant line that follows holds the same text). Separate from the event log on
 * purpose: a session emits many stream events per turn, and they are already durable in
 * TranscriptEntry, where a reconnecting client reads what it missed.
 */
import type { StoredLine } from "../domain/sessions/runtime.ts";

/** Who owns the session, so /ws can tell who may see its lines without reading the database. */
export type TranscriptOwner = { name: string; principal: string | null; spawnedBy: string | null };

export type TranscriptPush = { session: string; team: string; owner: TranscriptOwner } & ({ entry: StoredLine } | { textDelta: string });
type Listener = (push: TranscriptPush) => void;

export class TranscriptFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  publish(push: TranscriptPush): void {
    for (const fn of this.listeners) {
      try {
        fn(push);
      } catch (e) {
        console.error("[teamhub] transcript listener failed:", e);
      }
    }
  }
}
