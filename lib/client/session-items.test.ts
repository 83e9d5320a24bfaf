/**
 * A session's items from its /ws frames: streamed text yielded once across `soFar` deltas and the stored
 * line, tool calls and results from the CLI's lines, and the turn's result from the hub's event.
 */
import { describe, expect, it } from "vitest";
import { TeamHub, HubError } from "teamhub";
import { ServerMessage, WS_VERSION } from "../ws.ts";
import type { Frame } from "./live.ts";
import { SessionReader } from "./session-items.ts";

/** A frame as the hub sends it, parsed as the client parses it. */
function frame(wire: unknown): Frame {
  const m = ServerMessage.parse(wire);
  if (m.type !== "event" && m.type !== "transcript" && m.type !== "transcript_delta") throw new Error(`not a session frame: ${m.type}`);
  return m;
}
const line = (id: number, direction: "in" | "out", type: string, payload: unknown): Frame =>
  frame({
    v: WS_VERSION,
    type: "transcript",
    team: "t",
    payload: { session: "s", entry: { id, interactionId: 7, at: new Date(0).toISOString(), direction, type, subtype: null, payload } },
  });
const delta = (text: string, soFar?: true): Frame =>
  frame({
    v: WS_VERSION,
    type: "transcript_delta",
    team: "t",
    payload: { session: "s", text, ...(soFar ? { soFar } : {}) },
  });
const event = (id: number, type: string, payload: Record<string, unknown>): Frame =>
  frame({
    v: WS_VERSION,
    type: "event",
    team: "t",
    payload: { id, teamId: "t", type, subject: "session:s", payload, principal: "operator", causedBy: null, depth: 0, at: new Date(0).toISOString() },
  });
/** What every completed turn's event carries besides the figures a test sets. */
const turn = { status: "completed", isError: false, subtype: "success", error: null, empty: false, toolsUsed: [] };
const assistant = (content: unknown[]) => ({ type: "assistant", message: { content }, parent_tool_use_id: null });

describe("a session's items", () => {
  it("yield a turn's text once, its tool calls and results, and its result with the hub's cost", () => {
    const r = new SessionReader("s");
    const frames = [
      line(1, "in", "user", { type: "user", message: { content: [{ type: "text", text: "do it" }] } }),
      delta("Hel"),
      delta("Hello wor", true), // a reconnect's catch-up: only "lo wor" is new
      line(
        2,
        "out",
        "assistant",
        assistant([
          { type: "text", text: "Hello world" },
          { type: "tool_use", id: "tu1", name: "Bash", input: { command: "ls" } },
        ]),
      ),
      line(2, "out", "assistant", assistant([{ type: "text", text: "again" }])), // read back twice: dropped by id
      line(3, "out", "user", { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "tu1", content: [{ type: "text", text: "a.ts" }] }] } }),
      line(4, "out", "result", { type: "result", result: "Hello world" }),
      event(10, "session.turn_completed", { ...turn, name: "s", interactionId: 7, costUsd: 0.25, turns: 2, durationMs: 40 }),
      event(11, "session.turn_completed", { ...turn, name: "other", interactionId: 8, costUsd: 1, turns: 1, durationMs: 1 }),
    ];
    expect(frames.flatMap(r.read)).toEqual([
      { kind: "turn", interactionId: 7, prompt: "do it" },
      { kind: "text", interactionId: 7, text: "Hel" },
      { kind: "text", interactionId: 7, text: "lo wor" },
      { kind: "text", interactionId: 7, text: "ld" },
      { kind: "tool-use", interactionId: 7, id: "tu1", name: "Bash", input: { command: "ls" } },
      { kind: "tool-result", interactionId: 7, toolUseId: "tu1", content: "a.ts", isError: false },
      { kind: "result", interactionId: 7, status: "completed", text: "Hello world", costUsd: 0.25, turns: 2, durationMs: 40, error: null },
    ]);
  });

  it("end a turn whose process died as interrupted", () => {
    const r = new SessionReader("s");
    const items = r.read(
      event(3, "session.exited", { name: "s", status: "killed", reason: "was killed", code: null, signal: "SIGKILL", abandonedInteraction: 7, stderrTail: "" }),
    );
    expect(items).toEqual([
      { kind: "result", interactionId: 7, status: "interrupted", text: null, costUsd: 0, turns: 0, durationMs: 0, error: "the process was killed" },
    ]);
  });
});

describe('import { TeamHub } from "teamhub"', () => {
  it("resolves to the client, whose failures are typed", async () => {
    const hub = new TeamHub({ url: "http://127.0.0.1:9", team: "t" });
    expect(hub.team).toBe("t");
    await expect(hub.health.get()).rejects.toMatchObject({ name: "HubUnreachable", url: "http://127.0.0.1:9" });
    expect(new HubError(404, "not_found", "no")).toMatchObject({ status: 404, code: "not_found" });
  });
});
