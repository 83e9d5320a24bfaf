/**
 * The CLI's stream-json protocol as far as the supervisor relies on it (recorded sessions in
 * ./fixtures/). Output lines are parsed loosely: unknown types and
 * extra fields are kept in the transcript but never break the session, because new CLI versions
 * add both.
 */
import { z } from "zod";

const Init = z
  .object({
    type: z.literal("system"),
    subtype: z.literal("init"),
    session_id: z.string(),
    model: z.string().optional(),
    claude_code_version: z.string().optional(),
  })
  .loose();

const ContentBlock = z
  .object({ type: z.string(), text: z.string().optional(), name: z.string().optional(), id: z.string().optional(), input: z.unknown().optional() })
  .loose();

const Assistant = z
  .object({
    type: z.literal("assistant"),
    message: z.object({ content: z.array(ContentBlock).default([]), model: z.string().optional() }).loose(),
    parent_tool_use_id: z.string().nullable().optional(),
  })
  .loose();

const Result = z
  .object({
    type: z.literal("result"),
    subtype: z.string(),
    is_error: z.boolean().default(false),
    result: z.string().optional(),
    num_turns: z.number().default(0),
    duration_ms: z.number().optional(),
    total_cost_usd: z.number().default(0),
    /** This turn's tokens (not cumulative, unlike total_cost_usd): what token budgets count. */
    usage: z
      .object({
        input_tokens: z.number().default(0),
        output_tokens: z.number().default(0),
        cache_creation_input_tokens: z.number().default(0),
        cache_read_input_tokens: z.number().default(0),
      })
      .loose()
      .optional(),
    session_id: z.string().optional(),
    api_error_status: z.number().nullable().optional(),
    permission_denials: z.array(z.object({ tool_name: z.string(), tool_input: z.unknown().optional() }).loose()).default([]),
    errors: z.array(z.string()).optional(),
    terminal_reason: z.string().optional(),
  })
  .loose();

/** The CLI puts an API failure's message in an assistant message of its own making, not the model's. */
export const isSynthetic = (a: Assistant) => a.message.model === "<synthetic>";

export type TurnOutcome = { status: "completed" | "error" | "interrupted"; error: string | null };

/**
 * How a turn ended, from its result. API failures are not error subtypes: they come as
 * `subtype: "success"` with `is_error: true` and the message in `result` ("API Error: 500 …"),
 * so the text is checked too in case a CLI ever sends one without the flag.
 */
export function turnOutcome(r: Result): TurnOutcome {
  if (r.subtype === "error_during_execution") return { status: "interrupted", error: null };
  const apiError = r.result !== undefined && /^API Error\b/.test(r.result);
  if (!r.is_error && !apiError) return { status: "completed", error: null };
  const error =
    r.result?.trim() ||
    r.errors?.join("; ") ||
    (r.api_error_status ? `the API answered HTTP ${r.api_error_status}` : `the turn ended with an error (${r.subtype})`);
  return { status: "error", error };
}

const CanUseTool = z
  .object({
    type: z.literal("control_request"),
    request_id: z.string(),
    request: z
      .object({
        subtype: z.literal("can_use_tool"),
        tool_name: z.string(),
        input: z.record(z.string(), z.unknown()).default({}),
        tool_use_id: z.string().optional(),
      })
      .loose(),
  })
  .loose();

const OtherControlRequest = z
  .object({ type: z.literal("control_request"), request_id: z.string(), request: z.object({ subtype: z.string() }).loose() })
  .loose();

const ControlResponse = z
  .object({
    type: z.literal("control_response"),
    response: z
      .object({ subtype: z.enum(["success", "error"]), request_id: z.string(), response: z.unknown().optional(), error: z.string().optional() })
      .loose(),
  })
  .loose();

/** With --include-partial-messages: the model's text as it arrives, before the whole assistant message. */
const TextDelta = z
  .object({
    type: z.literal("stream_event"),
    event: z.object({ type: z.literal("content_block_delta"), delta: z.object({ type: z.literal("text_delta"), text: z.string() }).loose() }).loose(),
    parent_tool_use_id: z.string().nullable().optional(),
  })
  .loose();

const ControlCancel = z.object({ type: z.literal("control_cancel_request"), request_id: z.string() }).loose();

export type Init = z.infer<typeof Init>;
export type Assistant = z.infer<typeof Assistant>;
export type Result = z.infer<typeof Result>;
export type CanUseTool = z.infer<typeof CanUseTool>;

export type OutputMessage =
  | { kind: "init"; msg: Init }
  | { kind: "assistant"; msg: Assistant }
  | { kind: "result"; msg: Result }
  | { kind: "can_use_tool"; msg: CanUseTool }
  | { kind: "control_request"; msg: z.infer<typeof OtherControlRequest> }
  | { kind: "control_response"; msg: z.infer<typeof ControlResponse> }
  | { kind: "control_cancel"; msg: z.infer<typeof ControlCancel> }
  | { kind: "keep_alive" }
  | { kind: "text_delta"; msg: z.infer<typeof TextDelta> }
  /** Anything else, including types this version of the hub has never seen: kept, not acted on. */
  | { kind: "other"; type: string; subtype: string | null };

const PARSERS = [
  ["init", Init],
  ["assistant", Assistant],
  ["result", Result],
  ["can_use_tool", CanUseTool],
  ["control_request", OtherControlRequest],
  ["control_response", ControlResponse],
  ["control_cancel", ControlCancel],
  ["text_delta", TextDelta],
] as const;

/** Classifies one parsed stdout line. Never throws. */
export function classify(line: Record<string, unknown>): OutputMessage {
  if (line.type === "keep_alive") return { kind: "keep_alive" };
  for (const [kind, schema] of PARSERS) {
    const parsed = schema.safeParse(line);
    if (parsed.success) return { kind, msg: parsed.data } as OutputMessage;
  }
  return { kind: "other", type: typeof line.type === "string" ? line.type : "unknown", subtype: typeof line.subtype === "string" ? line.subtype : null };
}

// ── Input lines (host → CLI) ──────────────────────────────────────────────

export const userMessage = (text: string) => ({
  type: "user",
  message: { role: "user", content: [{ type: "text", text }] },
  parent_tool_use_id: null,
  session_id: "",
});

export const controlRequest = (requestId: string, request: Record<string, unknown>) => ({ type: "control_request", request_id: requestId, request });

export type PermissionAnswer = { behavior: "allow"; updatedInput: Record<string, unknown> } | { behavior: "deny"; message: string; interrupt?: boolean };

export const permissionResponse = (requestId: string, answer: PermissionAnswer) => ({
  type: "control_response",
  response: { subtype: "success", request_id: requestId, response: answer },
});
