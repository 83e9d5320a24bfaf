/**
 * Turns stored transcript lines (the CLI's stream-json lines and what the hub sent it) into what
 * the session page shows: prompts, assistant text, tool calls with their results folded under
 * them and their permission's answer as a badge (a request with no call of its own is a row), and one
 * footer per turn whose failure is said there once (the CLI's own note repeating it is dropped).
 * Pure, so the page can rebuild it on every new line and tests can feed it recorded transcripts.
 */
import type { InteractionView, TranscriptEntryView } from "@/lib/api/sessions.ts";

export type PermissionDecision = "pending" | "allowed" | "denied" | "withdrawn";

export type Item =
  | { kind: "prompt"; key: string; text: string; at: Date }
  | { kind: "text"; key: string; text: string; nested: boolean }
  | {
      kind: "tool";
      key: string;
      toolUseId: string | null;
      name: string;
      input: unknown;
      nested: boolean;
      result: { text: string; isError: boolean } | null;
      /** The hub's answer to the call's permission request, shown as a badge on its row. */
      permission: { decision: PermissionDecision; message: string | null } | null;
    }
  | { kind: "tool_result"; key: string; text: string; isError: boolean }
  | {
      kind: "permission";
      key: string;
      requestId: string;
      toolUseId: string | null;
      toolName: string;
      input: unknown;
      decision: PermissionDecision;
      message: string | null;
    }
  | {
      kind: "result";
      key: string;
      interactionId: number | null;
      subtype: string;
      isError: boolean;
      error: string | null;
      turns: number | null;
      durationMs: number | null;
    }
  | { kind: "note"; key: string; text: string }
  /** An agent's plan (an ACP agent's `plan` update): its steps and how far each is. */
  | { kind: "plan"; key: string; entries: Array<{ content: string; status: string }> }
  | { kind: "raw"; key: string; label: string; payload: unknown };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const blocks = (content: unknown): Obj[] => (Array.isArray(content) ? content.map(obj) : typeof content === "string" ? [{ type: "text", text: content }] : []);

/** The text of a tool result's content: a string or text blocks (other blocks are named). */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return blocks(content)
    .map((b) => str(b.text) ?? `[${str(b.type) ?? "block"}]`)
    .join("\n");
}

/** One line saying what a tool call does: its command, path, pattern or first short string. */
export function summarizeInput(input: unknown, max = 80): string {
  const o = obj(input);
  const pick = ["command", "file_path", "path", "pattern", "url", "query", "prompt", "description"].map((k) => str(o[k])).find((v) => v);
  const text =
    pick ??
    Object.values(o)
      .map(str)
      .find((v) => v) ??
    (Object.keys(o).length ? JSON.stringify(o) : "");
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Merges new lines into the known ones: sorted by id, each id once (live and fetched lines overlap). */
export function mergeEntries(known: TranscriptEntryView[], more: TranscriptEntryView[]): TranscriptEntryView[] {
  if (more.length === 0) return known;
  const last = known.at(-1)?.id ?? 0;
  if (more.every((e, i) => e.id > (i === 0 ? last : more[i - 1].id))) return [...known, ...more];
  const byId = new Map(known.map((e) => [e.id, e]));
  for (const e of more) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function buildItems(entries: TranscriptEntryView[]): Item[] {
  const items: Item[] = [];
  const tools = new Map<string, Extract<Item, { kind: "tool" }>>();
  const permissions = new Map<string, Extract<Item, { kind: "permission" }>>();
  const raw = (e: TranscriptEntryView, label: string) => items.push({ kind: "raw", key: `${e.id}`, label, payload: e.payload });

  for (const e of entries) {
    const p = obj(e.payload);
    const label = `${e.direction === "in" ? "→ " : ""}${e.type}${e.subtype ? ` · ${e.subtype}` : ""}`;
    if (p.truncated === true) {
      raw(e, `${label} (stored truncated: ${String(p.bytes)} bytes)`);
      continue;
    }
    const nested = str(p.parent_tool_use_id) !== null;

    if (e.direction === "in" && e.type === "user") {
      const text = blocks(obj(p.message).content)
        .map((b) => str(b.text) ?? "")
        .join("\n");
      items.push({ kind: "prompt", key: `${e.id}`, text, at: e.at });
    } else if (e.direction === "in" && e.type === "control_response" && (e.subtype === "allow" || e.subtype === "deny")) {
      const response = obj(p.response);
      const answer = obj(response.response);
      const requestId = str(response.request_id) ?? "";
      const decision: PermissionDecision = e.subtype === "allow" ? "allowed" : "denied";
      const known = permissions.get(requestId);
      if (known) Object.assign(known, { decision, message: str(answer.message) });
      else
        items.push({ kind: "permission", key: `${e.id}`, requestId, toolUseId: null, toolName: "(tool)", input: null, decision, message: str(answer.message) });
    } else if (e.direction === "out" && e.type === "assistant") {
      // The CLI writes an API failure as an assistant message of its own: a note, not the model speaking.
      const synthetic = obj(p.message).model === "<synthetic>";
      for (const [i, b] of blocks(obj(p.message).content).entries()) {
        const key = `${e.id}.${i}`;
        if (b.type === "text") items.push(synthetic ? { kind: "note", key, text: str(b.text) ?? "" } : { kind: "text", key, text: str(b.text) ?? "", nested });
        else if (b.type === "tool_use") {
          const tool = {
            kind: "tool" as const,
            key,
            toolUseId: str(b.id),
            name: str(b.name) ?? "(tool)",
            input: b.input,
            nested,
            result: null,
            permission: null,
          };
          if (tool.toolUseId) tools.set(tool.toolUseId, tool);
          items.push(tool);
        } else items.push({ kind: "raw", key, label: `assistant · ${str(b.type) ?? "block"}`, payload: b });
      }
    } else if (e.direction === "out" && e.type === "user") {
      for (const [i, b] of blocks(obj(p.message).content).entries()) {
        const key = `${e.id}.${i}`;
        if (b.type === "tool_result") {
          const result = { text: resultText(b.content), isError: b.is_error === true };
          const tool = tools.get(str(b.tool_use_id) ?? "");
          if (tool) tool.result = result;
          else items.push({ kind: "tool_result", key, ...result });
        } else if (b.type === "text") items.push({ kind: "note", key, text: str(b.text) ?? "" });
        else items.push({ kind: "raw", key, label: `user · ${str(b.type) ?? "block"}`, payload: b });
      }
    } else if (e.direction === "out" && e.type === "control_request" && e.subtype === "can_use_tool") {
      const request = obj(p.request);
      const item = {
        kind: "permission" as const,
        key: `${e.id}`,
        requestId: str(p.request_id) ?? "",
        toolUseId: str(request.tool_use_id),
        toolName: str(request.tool_name) ?? "(tool)",
        input: request.input,
        decision: "pending" as PermissionDecision,
        message: null,
      };
      permissions.set(item.requestId, item);
      items.push(item);
    } else if (e.direction === "out" && e.type === "control_cancel_request") {
      const known = permissions.get(str(p.request_id) ?? "");
      if (known) Object.assign(known, { decision: "withdrawn", message: "the CLI withdrew the request" });
      else raw(e, label);
    } else if (e.direction === "out" && e.type === "plan" && Array.isArray(p.entries)) {
      const entries = p.entries.map(obj).map((x) => ({ content: str(x.content) ?? "", status: str(x.status) ?? "pending" }));
      items.push({ kind: "plan", key: `${e.id}`, entries });
    } else if (e.direction === "out" && e.type === "result") {
      const isError = p.is_error === true;
      const errors = Array.isArray(p.errors) ? p.errors.filter((x): x is string => typeof x === "string").join("; ") : "";
      const error = isError ? str(p.result) || errors || null : null;
      items.push({
        kind: "result",
        key: `${e.id}`,
        interactionId: e.interactionId,
        subtype: str(p.subtype) ?? e.subtype ?? "",
        isError,
        error,
        turns: num(p.num_turns),
        durationMs: num(p.duration_ms),
      });
    } else {
      raw(e, label);
    }
  }
  return foldInto(items, tools);
}

/**
 * A permission answered for a call shown as a row becomes that row's badge; a failed turn's message is said by its
 * footer, so the CLI's note of the same words just before it goes.
 */
function foldInto(items: Item[], tools: Map<string, Extract<Item, { kind: "tool" }>>): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    if (item.kind === "permission" && item.toolUseId && tools.has(item.toolUseId)) {
      tools.get(item.toolUseId)!.permission = { decision: item.decision, message: item.message };
      continue;
    }
    if (item.kind === "result" && item.error) {
      const last = out.at(-1);
      if (last?.kind === "note" && item.error.startsWith(last.text.trim())) out.pop();
    }
    out.push(item);
  }
  return out;
}

/** Paths under the session's own directories written relative to them, as one reads a log of work in its tree. */
export function relativeTo(roots: string[]): (text: string) => string {
  const sorted = [...new Set(roots.filter((r) => r.length > 1).map((r) => r.replace(/\/+$/, "")))].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return (t) => t;
  // Where a path ends: a blank, a quote, a shell operator, or the end of the text.
  const ends = (c: string | undefined) => c === undefined || /[\s'"`;|&)(<>:,]/.test(c);
  const one = (text: string, root: string) => {
    let out = "";
    let from = 0;
    for (let at = text.indexOf(root); at >= 0; at = text.indexOf(root, from)) {
      out += text.slice(from, at);
      const next = text[at + root.length];
      if (next === "/" && !ends(text[at + root.length + 1])) from = at + root.length + 1;
      else if (ends(next) || next === "/") {
        out += ".";
        from = at + root.length + (next === "/" ? 1 : 0);
      } else {
        // Another name that starts the same (`/w/tree-2` beside `/w/tree`).
        out += root;
        from = at + root.length;
      }
    }
    return out + text.slice(from);
  };
  return (text) => sorted.reduce(one, text);
}

/** Every string inside a tool's input, made relative (for its summary, its diff and its JSON). */
export function relativeInput(input: unknown, rel: (t: string) => string): unknown {
  if (typeof input === "string") return rel(input);
  if (Array.isArray(input)) return input.map((v) => relativeInput(v, rel));
  if (typeof input === "object" && input !== null) return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, relativeInput(v, rel)]));
  return input;
}

const CLI_STOPS: Record<string, string> = {
  error_max_turns: "stopped: the turn limit was reached",
  error_max_budget_usd: "stopped: the cost limit was reached",
};

/**
 * How a turn ended, for its footer: the hub's record of the interaction when it is known (which
 * says which limit and by how much), else the CLI's result line. API failures come with subtype
 * "success", so the subtype alone never decides.
 */
export function turnEnding(result: Extract<Item, { kind: "result" }>, interaction: InteractionView | undefined): { text: string; failed: boolean } {
  switch (interaction?.status) {
    case "completed":
      return { text: "turn finished", failed: false };
    case "error":
      return { text: `failed: ${interaction.error ?? result.error ?? "no message"}`, failed: true };
    case "limit":
      return { text: `stopped: ${interaction.error ?? "a limit was reached"}`, failed: true };
    case "interrupted":
      return { text: "interrupted", failed: true };
  }
  if (result.subtype === "error_during_execution") return { text: "interrupted", failed: true };
  if (CLI_STOPS[result.subtype]) return { text: CLI_STOPS[result.subtype], failed: true };
  return result.isError ? { text: `failed: ${result.error ?? "no message"}`, failed: true } : { text: "turn finished", failed: false };
}
