/**
 * What a session is doing, as the items a script reacts to (docs/client.md#sessions): the model's text as
 * it streams, its tool calls and their results, and the end of each turn with its cost. Built from
 * three /ws sources: the text deltas, the stored transcript lines (the CLI's stream-json messages) and
 * the session's turn events; the CLI's lines are read with the schemas below, never cast.
 */
import { z } from "zod";
import type { HubEvent } from "../api/events.ts";
import type { Frame } from "./live.ts";

export type TurnStatus = "completed" | "error" | "interrupted" | "limit";

/** A turn's end: the hub's record of it (status, cost, turns) and the model's final text. */
export type TurnResult = {
  kind: "result";
  interactionId: number;
  status: TurnStatus;
  text: string | null;
  costUsd: number;
  turns: number;
  durationMs: number;
  /** Why it did not complete: the API's error, the limit that stopped it, the process's exit. */
  error: string | null;
};

/** `interactionId`: the turn (one message to the session and its answer) the item belongs to. */
export type SessionItem = { interactionId: number | null } & (
  | { kind: "turn"; prompt: string }
  | { kind: "text"; text: string }
  | { kind: "tool-use"; id: string; name: string; input: unknown }
  | { kind: "tool-result"; toolUseId: string; content: string; isError: boolean }
  | TurnResult
);

export type TranscriptLine = { id: number; interactionId: number | null; direction: "in" | "out"; type: string; payload: unknown };

const TextBlock = z.object({ type: z.literal("text"), text: z.string() });
const ToolUseBlock = z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResultBlock = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.object({ text: z.string().optional() }))]).optional(),
  is_error: z.boolean().optional(),
});
const Message = z.object({ message: z.object({ content: z.union([z.string(), z.array(z.unknown())]) }), parent_tool_use_id: z.string().nullish() });
const ResultLine = z.object({ result: z.string().optional() });

const blocksOf = (content: string | unknown[]): unknown[] => (typeof content === "string" ? [{ type: "text", text: content }] : content);
const pick = <S extends z.ZodType>(schema: S, values: unknown[]): z.output<S>[] =>
  values.flatMap((v) => {
    const r = schema.safeParse(v);
    return r.success ? [r.data] : [];
  });

/**
 * The reader of one session's frames. It remembers the text streamed so far of the message in flight (so a
 * `soFar` delta after a reconnect, or the stored line, yields only what is new), the last transcript line
 * it delivered (so a line read back after a reconnect is not yielded twice), and each turn's final text.
 */
export class SessionReader {
  /** The id of the last transcript line delivered; the catch-up reads after it. */
  cursor = 0;
  private turn: number | null = null;
  private streamed = "";
  private readonly finals = new Map<number, string>();

  constructor(private readonly name: string) {}

  read = (frame: Frame): SessionItem[] => {
    if (frame.type === "transcript") return frame.payload.session === this.name ? this.line(frame.payload.entry) : [];
    if (frame.type === "transcript_delta") return frame.payload.session === this.name ? this.delta(frame.payload) : [];
    // Setup and run output is not part of the conversation: read it with `processOutput`.
    if (frame.type === "process_output") return [];
    return this.event({ ...frame.payload, at: new Date(frame.payload.at) });
  };

  line(entry: TranscriptLine): SessionItem[] {
    if (entry.id <= this.cursor) return [];
    this.cursor = entry.id;
    const interactionId = entry.interactionId;
    if (entry.type === "result") {
      const r = ResultLine.safeParse(entry.payload);
      if (interactionId !== null && r.success && r.data.result !== undefined) this.finals.set(interactionId, r.data.result);
      this.streamed = "";
      return [];
    }
    const m = Message.safeParse(entry.payload);
    if (!m.success) return [];
    const blocks = blocksOf(m.data.message.content);
    if (entry.direction === "in" && entry.type === "user") {
      this.turn = interactionId;
      this.streamed = "";
      return [
        {
          kind: "turn",
          interactionId,
          prompt: pick(TextBlock, blocks)
            .map((b) => b.text)
            .join("\n"),
        },
      ];
    }
    if (entry.type === "assistant") {
      const items: SessionItem[] = [];
      if (!m.data.parent_tool_use_id) {
        // The stored message holds the whole text: yield what the deltas did not (all of it after a reconnect).
        const text = pick(TextBlock, blocks)
          .map((b) => b.text)
          .join("");
        if (text.startsWith(this.streamed) && text.length > this.streamed.length)
          items.push({ kind: "text", interactionId, text: text.slice(this.streamed.length) });
        this.streamed = "";
      }
      for (const b of pick(ToolUseBlock, blocks)) items.push({ kind: "tool-use", interactionId, id: b.id, name: b.name, input: b.input });
      return items;
    }
    if (entry.type === "user") {
      return pick(ToolResultBlock, blocks).map((b) => ({
        kind: "tool-result" as const,
        interactionId,
        toolUseId: b.tool_use_id,
        content: typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => c.text ?? "").join(""),
        isError: b.is_error === true,
      }));
    }
    return [];
  }

  private delta(d: { text: string; soFar?: true }): SessionItem[] {
    const before = this.streamed;
    this.streamed = d.soFar ? d.text : before + d.text;
    // A `soFar` replaces what was streamed: yield only its new end (nothing when the message was voided).
    const text = !d.soFar ? d.text : d.text.startsWith(before) ? d.text.slice(before.length) : d.text;
    return text ? [{ kind: "text", interactionId: this.turn, text }] : [];
  }

  private event(e: HubEvent): SessionItem[] {
    if (e.type === "session.turn_completed") {
      if (e.payload.name !== this.name) return [];
      const { interactionId, status, error, costUsd, turns, durationMs } = e.payload;
      const text = this.finals.get(interactionId) ?? null;
      this.finals.delete(interactionId);
      return [{ kind: "result", interactionId, status, text, costUsd, turns, durationMs, error }];
    }
    if (e.type === "session.exited") {
      const { name, abandonedInteraction, reason } = e.payload;
      if (name !== this.name || abandonedInteraction === null) return [];
      return [
        {
          kind: "result",
          interactionId: abandonedInteraction,
          status: "interrupted",
          text: null,
          costUsd: 0,
          turns: 0,
          durationMs: 0,
          error: `the process ${reason}`,
        },
      ];
    }
    return [];
  }
}
