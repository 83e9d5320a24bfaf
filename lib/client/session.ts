/**
 * One session as a script uses it (docs/client.md#sessions): `hub.session("name")` can send a message and
 * wait for its turn's result, stream that turn's items, or follow everything the session does. The
 * session itself is spawned, delegated, stopped… with the endpoint methods (`hub.sessions.*`).
 */
import { z } from "zod";
import { HubError } from "../api/call.ts";
import { MAX_PAGE } from "../api/common.ts";
import { WireTranscriptEntry } from "../ws.ts";
import { LiveStream } from "./live.ts";
import { SessionReader, type SessionItem, type TranscriptLine, type TurnResult } from "./session-items.ts";
import type { TeamHub } from "./team-hub.ts";

// The handle reads these fields of two answers; parsing only them keeps it independent of the rest.
const Queued = z.object({ interaction: z.object({ id: z.number() }) });
const TranscriptPage = z.object({ entries: z.array(WireTranscriptEntry.shape.entry.omit({ at: true })) });

export type ItemsOptions = {
  /** Yield the stored lines after this transcript entry id first (0: the whole transcript); default: from now. */
  after?: number;
  signal?: AbortSignal;
};

export class SessionHandle {
  constructor(
    private readonly hub: TeamHub,
    readonly name: string,
  ) {}

  /** Everything the session does from now on (or from `after`), as items, until the loop breaks or the signal aborts. */
  items(options: ItemsOptions = {}): LiveStream<SessionItem> {
    const reader = new SessionReader(this.name);
    let first = true;
    return this.hub.live<SessionItem>({
      teams: [],
      sessions: [this.name],
      read: reader.read,
      signal: options.signal,
      // The first read finds where the stored transcript ends (yielding it only when asked to); a reconnect reads what it missed.
      catchUp: async () => {
        const yieldIt = !first || options.after !== undefined;
        if (first && options.after !== undefined) reader.cursor = options.after;
        first = false;
        const lines = await this.linesAfter(reader.cursor);
        if (!yieldIt) {
          reader.cursor = lines.at(-1)?.id ?? reader.cursor;
          return [];
        }
        return lines.flatMap((l) => reader.line(l));
      },
    });
  }

  /**
   * Sends a message and yields the items of the turn it starts, ending with that turn's result. Items of a turn
   * still running before it are not this turn's and are skipped.
   */
  async *stream(message: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<SessionItem, void, undefined> {
    const items = this.items(options);
    try {
      await items.ready;
      const { interaction } = Queued.parse(await this.hub.sessions.send({ name: this.name, message }, options));
      for await (const item of items) {
        if (item.interactionId !== interaction.id) continue;
        yield item;
        if (item.kind === "result") return;
      }
      throw new HubError(0, "stream_ended", `the live stream of session '${this.name}' ended before its turn did`);
    } finally {
      items.close();
    }
  }

  /** Sends a message and waits for its turn: the result holds the final text, status, cost and turns. */
  async send(message: string, options: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    for await (const item of this.stream(message, options)) if (item.kind === "result") return item;
    throw new HubError(0, "stream_ended", `session '${this.name}' gave no result`);
  }

  /** Waits for the next turn of the session to end (the one in flight, or the next one to start). */
  async result(options: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    const items = this.items(options);
    try {
      for await (const item of items) if (item.kind === "result") return item;
      throw new HubError(0, "stream_ended", `the live stream of session '${this.name}' ended before its turn did`);
    } finally {
      items.close();
    }
  }

  /** The stored transcript after `after`, page by page; none for a session that does not exist yet. */
  private async linesAfter(after: number): Promise<TranscriptLine[]> {
    const lines: TranscriptLine[] = [];
    for (let cursor = after; ;) {
      let page;
      try {
        page = TranscriptPage.parse(await this.hub.sessions.transcript({ name: this.name, after: cursor, limit: MAX_PAGE }));
      } catch (e) {
        if (e instanceof HubError && e.code === "not_found") return lines;
        throw e;
      }
      lines.push(...page.entries);
      if (page.entries.length < MAX_PAGE) return lines;
      cursor = page.entries[page.entries.length - 1].id;
    }
  }
}
