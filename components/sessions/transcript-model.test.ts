import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { InteractionView, TranscriptEntryView } from "@/lib/api/sessions.ts";
import { buildItems, mergeEntries, relativeInput, relativeTo, summarizeInput, turnEnding, type Item } from "./transcript-model.ts";

let nextId = 1;
const line = (direction: "in" | "out", type: string, subtype: string | null, payload: unknown, interactionId = 1): TranscriptEntryView => ({
  id: nextId++,
  interactionId,
  at: new Date("2026-03-01T10:00:00.000Z"),
  direction,
  type,
  subtype,
  payload,
});

// Shapes as the pinned CLI writes them and the hub records them (see server/supervisor/runner.ts).
function deniedTurn(): TranscriptEntryView[] {
  nextId = 1;
  return [
    line("in", "user", null, { type: "user", message: { role: "user", content: [{ type: "text", text: "@bash rm -rf /tmp/x" }] } }),
    line("out", "system", "init", { type: "system", subtype: "init", session_id: "s1", model: "claude-opus-4-8" }),
    line("out", "assistant", null, {
      type: "assistant",
      message: { content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "rm -rf /tmp/x", description: "scripted" } }] },
      parent_tool_use_id: null,
    }),
    line("out", "control_request", "can_use_tool", {
      type: "control_request",
      request_id: "req-1",
      request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "rm -rf /tmp/x" }, tool_use_id: "toolu_1" },
    }),
    line("in", "control_response", "deny", {
      type: "control_response",
      response: { subtype: "success", request_id: "req-1", response: { behavior: "deny", message: "Denied by operator: no" } },
    }),
    line("out", "user", null, {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", content: "Denied by operator: no", is_error: true, tool_use_id: "toolu_1" }] },
      parent_tool_use_id: null,
    }),
    line("out", "assistant", null, { type: "assistant", message: { content: [{ type: "text", text: "after" }] }, parent_tool_use_id: null }),
    line("out", "result", "success", {
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 2,
      duration_ms: 215,
      total_cost_usd: 0.022,
      result: "after",
    }),
  ];
}

describe("transcript model", () => {
  it("shows the prompt, the tool call with its result folded under it, the denial, the text and a footer", () => {
    const items = buildItems(deniedTurn());
    expect(items.map((i) => i.kind)).toEqual(["prompt", "raw", "tool", "text", "result"]);
    expect(items[0]).toMatchObject({ text: "@bash rm -rf /tmp/x" });
    expect(items[1]).toMatchObject({ label: "system · init" });
    expect(items[2]).toMatchObject({
      name: "Bash",
      toolUseId: "toolu_1",
      result: { text: "Denied by operator: no", isError: true },
      permission: { decision: "denied", message: "Denied by operator: no" },
    });
    expect(items[3]).toMatchObject({ text: "after", nested: false });
    expect(items[4]).toMatchObject({ interactionId: 1, subtype: "success", isError: false, turns: 2, durationMs: 215 });
  });

  it("shows an API failure as a failed footer with the API's message (not again as the CLI's note), never as a success", () => {
    // Recorded from the real CLI (2.1.197) against the fake API's `@error 500`.
    const recorded = fs
      .readFileSync(path.join(import.meta.dirname, "../../server/supervisor/fixtures/api-error.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean);
    nextId = 200;
    const items = buildItems(recorded.map((l) => JSON.parse(l)).map((p) => line("out", p.type, p.subtype ?? null, p)));
    expect(items.map((i) => i.kind)).toEqual(["result"]);
    const result = items[0] as Extract<Item, { kind: "result" }>;
    expect(result).toMatchObject({ subtype: "success", isError: true, error: expect.stringMatching(/^API Error: 500 scripted failure/) });
    const ending = turnEnding(result, undefined);
    expect(ending.failed).toBe(true);
    expect(ending.text).toMatch(/^failed: API Error: 500 scripted failure/);
    expect(ending.text).not.toContain("success");
  });

  it("footers say how the turn ended from the hub's record: finished, failed with why, stopped by which limit, interrupted", () => {
    const ok = buildItems(deniedTurn()).at(-1) as Extract<Item, { kind: "result" }>;
    const interaction = (status: string, error: string | null = null) => ({ status, error }) as InteractionView;
    expect(turnEnding(ok, undefined)).toEqual({ text: "turn finished", failed: false });
    expect(turnEnding(ok, interaction("completed"))).toEqual({ text: "turn finished", failed: false });
    expect(turnEnding(ok, interaction("limit", "cost limit: $0.40 spent of $0.05"))).toEqual({
      text: "stopped: cost limit: $0.40 spent of $0.05",
      failed: true,
    });
    expect(turnEnding(ok, interaction("error", "API Error: 529 overloaded"))).toEqual({ text: "failed: API Error: 529 overloaded", failed: true });
    const cut = { ...ok, subtype: "error_max_budget_usd", isError: true, error: "Reached maximum budget ($0.05)" };
    expect(turnEnding(cut, undefined)).toEqual({ text: "stopped: the cost limit was reached", failed: true });
    expect(turnEnding({ ...ok, subtype: "error_during_execution", isError: true }, undefined)).toEqual({ text: "interrupted", failed: true });
  });

  it("keeps a request pending until answered, and marks one the CLI withdrew", () => {
    const turn = deniedTurn().slice(0, 4);
    expect(buildItems(turn).at(-1)).toMatchObject({ kind: "tool", permission: { decision: "pending", message: null } });
    const cancel = line("out", "control_cancel_request", null, { type: "control_cancel_request", request_id: "req-1" });
    expect(buildItems([...turn, cancel]).at(-1)).toMatchObject({ kind: "tool", permission: { decision: "withdrawn" } });
  });

  it("shows an ACP agent's plan as its steps with their state, and a malformed one as a raw line", () => {
    nextId = 200;
    const entries = [
      { content: "read the schema", priority: "high", status: "completed" },
      { content: "write the API contract", priority: "medium", status: "in_progress" },
    ];
    const items = buildItems([line("out", "plan", null, { type: "plan", entries }), line("out", "plan", null, { type: "plan" })]);
    expect(items).toEqual([
      {
        kind: "plan",
        key: "200",
        entries: [
          { content: "read the schema", status: "completed" },
          { content: "write the API contract", status: "in_progress" },
        ],
      },
      expect.objectContaining({ kind: "raw", label: "plan" }),
    ]);
  });

  it("keeps what it does not know, and results without their call, as their own rows", () => {
    nextId = 100;
    const items = buildItems([
      line("out", "user", null, {
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "gone", content: [{ type: "text", text: "ok" }, { type: "image" }] }] },
      }),
      line("out", "noise", null, { line: "warning: something" }),
      line("out", "stream_event", null, { truncated: true, bytes: 300000, head: "{" }),
      line("out", "user", null, { type: "user", message: { content: [{ type: "text", text: "[Request interrupted by user]" }] } }),
    ]);
    expect(items).toEqual([
      { kind: "tool_result", key: "100.0", text: "ok\n[image]", isError: false },
      expect.objectContaining({ kind: "raw", label: "noise" }),
      expect.objectContaining({ kind: "raw", label: "stream_event (stored truncated: 300000 bytes)" }),
      { kind: "note", key: "103.0", text: "[Request interrupted by user]" },
    ]);
  });

  it("merges live and fetched lines in id order, each once", () => {
    const all = deniedTurn();
    const live = [all[5], all[6]];
    const merged = mergeEntries(mergeEntries([], live), all.slice(0, 7));
    expect(merged.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(mergeEntries(merged, [all[7]]).map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("summarizes a tool input in one line", () => {
    expect(summarizeInput({ command: "npm test\n  -- --watch", description: "run" })).toBe("npm test -- --watch");
    expect(summarizeInput({ file_path: "/src/a.ts", content: "x" })).toBe("/src/a.ts");
    expect(summarizeInput({ n: 1 })).toBe('{"n":1}');
    expect(summarizeInput({ command: "x".repeat(100) }, 10)).toBe("xxxxxxxxx…");
  });
});

describe("a transcript that reads like logs", () => {
  it("puts a call's permission answer on its row, and keeps a request without a call as a row", () => {
    const items = buildItems(deniedTurn());
    expect(items.map((i) => i.kind)).toEqual(["prompt", "raw", "tool", "text", "result"]);
    expect(items[2]).toMatchObject({ name: "Bash", permission: { decision: "denied", message: "Denied by operator: no" } });
    const orphan = line("out", "control_request", "can_use_tool", {
      type: "control_request",
      request_id: "req-9",
      request: { subtype: "can_use_tool", tool_name: "Write", input: { file_path: "/w/a" }, tool_use_id: "toolu_unseen" },
    });
    expect(buildItems([orphan])).toEqual([expect.objectContaining({ kind: "permission", toolName: "Write", decision: "pending" })]);
  });

  it("says a failed turn's message once, in its footer", () => {
    nextId = 300;
    const items = buildItems([
      line("out", "assistant", null, { type: "assistant", message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: 500 boom" }] } }),
      line("out", "result", "success", { type: "result", subtype: "success", is_error: true, result: "API Error: 500 boom", num_turns: 1 }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(["result"]);
  });

  it("writes paths under the work tree relative to it, and leaves other names alone", () => {
    const rel = relativeTo(["/data/wt/s1", "/data/wt/s1/"]);
    expect(rel("cat /data/wt/s1/src/a.ts && ls /data/wt/s1 /data/wt/s1/ /data/wt/s10/x")).toBe("cat src/a.ts && ls . . /data/wt/s10/x");
    expect(rel("'/data/wt/s1/a b'")).toBe("'a b'");
    expect(relativeTo([])("/data/wt/s1/a")).toBe("/data/wt/s1/a");
    expect(relativeInput({ command: "cat /data/wt/s1/a", n: 1, list: ["/data/wt/s1/b"] }, rel)).toEqual({ command: "cat a", n: 1, list: ["b"] });
  });
});
