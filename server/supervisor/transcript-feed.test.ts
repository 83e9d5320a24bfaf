import { describe, expect, it } from "vitest";
import { TEXT_SO_FAR_CAP, TranscriptFeed, type TranscriptPush } from "./transcript-feed.ts";

const owner = { name: "writer", principal: null, spawnedBy: "operator" };
let ids = 0;

function feedWithLog() {
  const feed = new TranscriptFeed();
  const pushed: TranscriptPush[] = [];
  feed.subscribe((p) => pushed.push(p));
  const delta = (textDelta: string, session = "writer") => feed.publish({ session, team: "alpha", owner, textDelta });
  const line = (type: string, payload: unknown, session = "writer") =>
    feed.publish({ session, team: "alpha", owner, entry: { id: ++ids, at: new Date(), interactionId: 1, direction: "out", type, subtype: null, payload } });
  const soFar = (session = "writer") => [...feed.textsSoFar()].find((t) => t.session === session);
  return { feed, pushed, delta, line, soFar };
}

describe("the text streamed so far", () => {
  it("collects a message's pieces with the session's team and owner, and still pushes each piece", () => {
    const { pushed, delta, soFar } = feedWithLog();
    delta("Once ");
    delta("upon ");
    delta("a time");
    expect(soFar()).toEqual({ session: "writer", team: "alpha", owner, text: "Once upon a time", elided: 0 });
    expect(pushed.map((p) => ("textDelta" in p ? p.textDelta : null))).toEqual(["Once ", "upon ", "a time"]);
  });

  it("ends with the stored top-level assistant line that holds it, and starts again with the next message", () => {
    const { delta, line, soFar } = feedWithLog();
    delta("first ");
    line("assistant", { type: "assistant", parent_tool_use_id: null, message: { content: [{ type: "text", text: "first " }] } });
    expect(soFar()).toBeUndefined();
    delta("second");
    expect(soFar()?.text).toBe("second");
  });

  it("ends with the turn's result, whatever came before", () => {
    const { delta, line, soFar } = feedWithLog();
    delta("interrupted mid-sen");
    line("result", { type: "result", subtype: "error_during_execution", is_error: true });
    expect(soFar()).toBeUndefined();
  });

  it("ignores a sub-agent's lines and every other line: only the top-level message's own line ends it", () => {
    const { delta, line, soFar } = feedWithLog();
    delta("Let me ");
    line("assistant", { type: "assistant", parent_tool_use_id: "toolu_1", message: { content: [{ type: "text", text: "sub-agent says" }] } });
    line("user", { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }] } });
    line("system", { type: "system", subtype: "status" });
    line("control_request", { type: "control_request", request: { subtype: "can_use_tool" } });
    delta("check.");
    expect(soFar()?.text).toBe("Let me check.");
  });

  it("keeps each session's text apart; a line of one session ends only its own", () => {
    const { delta, line, soFar } = feedWithLog();
    delta("mine", "writer");
    delta("theirs", "reader");
    line("result", { type: "result" }, "reader");
    expect(soFar("writer")?.text).toBe("mine");
    expect(soFar("reader")).toBeUndefined();
  });

  it("drops the text when the process is gone, and tells the listeners once", () => {
    const { feed, pushed, delta, soFar } = feedWithLog();
    delta("half a sent");
    pushed.length = 0;
    feed.ended("writer");
    expect(soFar()).toBeUndefined();
    expect(pushed).toEqual([{ session: "writer", team: "alpha", owner, textEnded: true }]);
    feed.ended("writer");
    feed.ended("never-streamed");
    expect(pushed).toHaveLength(1);
  });

  it("stays under its cap by dropping the oldest part, counting what it dropped", () => {
    const { delta, soFar } = feedWithLog();
    const piece = "0123456789abcdef".repeat(64); // 1 KiB
    const pieces = (TEXT_SO_FAR_CAP / piece.length) * 3;
    for (let i = 0; i < pieces; i++) delta(piece);
    const t = soFar()!;
    expect(t.text.length).toBeLessThanOrEqual(TEXT_SO_FAR_CAP);
    expect(t.text.length).toBeGreaterThan(TEXT_SO_FAR_CAP / 2);
    expect(t.elided + t.text.length).toBe(pieces * piece.length);
    expect(piece.repeat(pieces).endsWith(t.text)).toBe(true);
  });

  it("never cuts a character in half when it trims", () => {
    const { delta, soFar } = feedWithLog();
    const emoji = "🙂"; // two UTF-16 units
    for (let i = 0; i < TEXT_SO_FAR_CAP / 2; i++) delta(emoji);
    delta("!"); // one unit more: the plain cut would fall between the halves of an emoji
    const t = soFar()!;
    expect(t.text.length).toBeLessThanOrEqual(TEXT_SO_FAR_CAP);
    expect(t.text.startsWith(emoji)).toBe(true);
    expect(t.text.endsWith(`${emoji}!`)).toBe(true);
    expect(t.elided + t.text.length).toBe(TEXT_SO_FAR_CAP + 1);
  });
});
