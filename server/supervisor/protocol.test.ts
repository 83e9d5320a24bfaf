import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classify, isSynthetic, permissionResponse, turnOutcome, userMessage, type Assistant, type Result } from "./protocol.ts";

// Recorded from the real CLI (2.1.197) against a loopback fake API.
const FIXTURES = path.join(import.meta.dirname, "fixtures");

describe("classify", () => {
  it("understands every line of the recorded transcripts and never throws", () => {
    for (const file of ["transcript.jsonl", "transcript-mcp.jsonl"].map((f) => path.join(FIXTURES, f))) {
      const kinds = fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => classify(JSON.parse(l)).kind);
      expect(kinds).toContain("init");
      expect(kinds).toContain("result");
    }
  });

  it("keeps unknown types as 'other' (newer CLIs add them)", () => {
    expect(classify({ type: "command_lifecycle", state: "queued" })).toEqual({ kind: "other", type: "command_lifecycle", subtype: null });
    expect(classify({ type: "system", subtype: "api_retry", attempt: 1 })).toEqual({ kind: "other", type: "system", subtype: "api_retry" });
    expect(classify({ nothing: true })).toEqual({ kind: "other", type: "unknown", subtype: null });
    expect(classify({ type: "keep_alive" })).toEqual({ kind: "keep_alive" });
  });

  it("reads results, permission requests and control answers", () => {
    const r = classify({ type: "result", subtype: "success", is_error: true, api_error_status: 500, result: "API Error", total_cost_usd: 0.1, num_turns: 1 });
    expect(r).toMatchObject({ kind: "result", msg: { is_error: true, permission_denials: [] } });
    const ask = classify({ type: "control_request", request_id: "r1", request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "ls" } } });
    expect(ask).toMatchObject({ kind: "can_use_tool", msg: { request_id: "r1", request: { tool_name: "Bash" } } });
    expect(classify({ type: "control_request", request_id: "r2", request: { subtype: "hook_callback" } }).kind).toBe("control_request");
    expect(classify({ type: "control_response", response: { subtype: "success", request_id: "r3", response: {} } }).kind).toBe("control_response");
  });
  it("reads streamed text pieces, and leaves the other partial events as 'other'", () => {
    const piece = {
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
      parent_tool_use_id: null,
      session_id: "s",
    };
    expect(classify(piece)).toMatchObject({ kind: "text_delta", msg: { event: { delta: { text: "Hel" } } } });
    const json = { type: "stream_event", event: { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "{" } } };
    expect(classify(json)).toEqual({ kind: "other", type: "stream_event", subtype: null });
    expect(classify({ type: "stream_event", event: { type: "message_start", message: {} } }).kind).toBe("other");
  });
});

describe("turnOutcome", () => {
  const parse = (line: Record<string, unknown>) => (classify(line) as { msg: unknown }).msg;
  const result = (fields: Record<string, unknown>) => parse({ type: "result", total_cost_usd: 0, num_turns: 1, ...fields }) as Result;

  it("fails a turn the API failed, with the API's message, as the real CLI reports it", () => {
    const [assistant, end] = fs
      .readFileSync(path.join(FIXTURES, "api-error.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect([classify(assistant).kind, classify(end).kind]).toEqual(["assistant", "result"]);
    expect(isSynthetic(parse(assistant) as Assistant)).toBe(true);
    const outcome = turnOutcome(parse(end) as Result);
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^API Error: 500 scripted failure\. This is a server-side issue/);
  });

  it("fails a result whose text is an API error even without the flag, and one with only the CLI's errors", () => {
    expect(turnOutcome(result({ subtype: "success", is_error: false, result: "API Error: 529 overloaded" }))).toEqual({
      status: "error",
      error: "API Error: 529 overloaded",
    });
    expect(turnOutcome(result({ subtype: "success", is_error: true, api_error_status: 500 }))).toEqual({ status: "error", error: "the API answered HTTP 500" });
    expect(turnOutcome(result({ subtype: "error_max_turns", is_error: true, errors: ["Reached maximum number of turns (1)"] }))).toEqual({
      status: "error",
      error: "Reached maximum number of turns (1)",
    });
  });

  it("completes a successful turn (whatever its text says further on) and marks an interrupted one", () => {
    expect(turnOutcome(result({ subtype: "success", is_error: false, result: "the API Error: page explains it" }))).toEqual({
      status: "completed",
      error: null,
    });
    expect(turnOutcome(result({ subtype: "error_during_execution", is_error: true }))).toEqual({ status: "interrupted", error: null });
  });
});

describe("input lines", () => {
  it("match the shapes the CLI accepts", () => {
    expect(userMessage("hi")).toEqual({
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "hi" }] },
      parent_tool_use_id: null,
      session_id: "",
    });
    expect(permissionResponse("r1", { behavior: "deny", message: "no" })).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "r1", response: { behavior: "deny", message: "no" } },
    });
  });
});
