/**
 * The /ws protocol: versioned envelopes `{v, type, team, payload}` in both directions, checked
 * with zod on each side. Server → client events are rows of the event log, described by the
 * event catalog (lib/api/events.ts): a client narrows on `type` and gets typed payloads and Dates.
 */
import { z } from "zod";
import { WireEvent } from "./api/events.ts";

export { WireEvent };
export type WireEvent = z.output<typeof WireEvent>;
import { TranscriptEntryView } from "./api/sessions.ts";
import { OutputPiece } from "./api/runnable.ts";

export const WS_VERSION = 1;

export const ClientMessage = z.discriminatedUnion("type", [
  z.object({
    v: z.literal(WS_VERSION),
    type: z.literal("subscribe"),
    team: z.string().max(128).nullable().default(null),
    payload: z.object({
      /** Teams to follow; omitted or empty means all teams and the hub-wide events. */
      teams: z.array(z.string().max(128)).max(100).default([]),
      /** Replays logged events after this id before live ones, so a reconnect misses nothing. */
      since: z.number().int().min(0).optional(),
      /** Sessions whose live transcript lines to push ("*": all of the followed teams); missed lines are read from /api/sessions/{name}/transcript. */
      sessions: z.array(z.string().max(128)).max(100).default([]),
    }),
  }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("ping"), team: z.string().nullable().default(null), payload: z.object({}).default({}) }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** A stored transcript line as it happens: the same entry the transcript endpoint pages through. */
export const WireTranscriptEntry = z.object({ session: z.string(), entry: TranscriptEntryView });
export type WireTranscriptEntry = z.output<typeof WireTranscriptEntry>;

/**
 * The model's text as it streams, before the stored assistant line with the whole text; not stored. A subscribe
 * first sends, per followed session with a message in flight, the text streamed so far as one delta with
 * `soFar: true` (replace what you hold; `elided` leading characters went over the hub's cap), then the live
 * pieces: nothing missing, nothing twice. An empty `soFar` later says the message will not complete (its process
 * is gone) and what was streamed of it is void.
 */
export const TextDelta = z.object({ session: z.string(), text: z.string(), soFar: z.literal(true).optional(), elided: z.number().optional() });
export type TextDelta = z.infer<typeof TextDelta>;

export const ProcessOutputFrame = z.object({ session: z.string(), piece: OutputPiece });
export type ProcessOutputFrame = z.output<typeof ProcessOutputFrame>;

export const ServerMessage = z.discriminatedUnion("type", [
  z.object({ v: z.literal(WS_VERSION), type: z.literal("hello"), team: z.null(), payload: z.object({ version: z.string(), lastEventId: z.number() }) }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("event"), team: z.string().nullable(), payload: WireEvent }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("transcript"), team: z.string(), payload: WireTranscriptEntry }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("transcript_delta"), team: z.string(), payload: TextDelta }),
  /** A stored piece of a followed session's work-tree setup, run or archive output (docs/worktrees.md#output). */
  z.object({ v: z.literal(WS_VERSION), type: z.literal("process_output"), team: z.string(), payload: ProcessOutputFrame }),
  z.object({
    v: z.literal(WS_VERSION),
    type: z.literal("subscribed"),
    team: z.null(),
    payload: z.object({ teams: z.array(z.string()), replayed: z.number() }),
  }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("pong"), team: z.null(), payload: z.object({}) }),
  z.object({ v: z.literal(WS_VERSION), type: z.literal("error"), team: z.null(), payload: z.object({ code: z.string(), message: z.string() }) }),
]);
/** A message as code sees it (dates as Date); JSON.stringify writes its wire form. */
export type ServerMessage = z.output<typeof ServerMessage>;

const WithParent = z.object({ parent_tool_use_id: z.unknown() });

/** A transcript line that supersedes the streamed text: the top-level assistant line holding it, or the turn's result. */
export function endsTextInFlight(entry: { type: string; payload: unknown }): boolean {
  if (entry.type === "result") return true;
  if (entry.type !== "assistant") return false;
  const parent = WithParent.safeParse(entry.payload).data?.parent_tool_use_id;
  return parent === null || parent === undefined;
}
