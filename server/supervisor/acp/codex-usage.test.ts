import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../testing/temp-dir.ts";
import { NO_TOKENS, RolloutTokens, rolloutFile, sessionTokens, turnTokens } from "./codex-usage.ts";

const SESSION = "0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b";

function tokenCount(input: number, output: number, cached = 0): string {
  const total = { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output };
  return JSON.stringify({
    timestamp: "2026-01-01T00:00:00Z",
    type: "event_msg",
    payload: { type: "token_count", info: { total_token_usage: total, last_token_usage: total } },
  });
}

describe("codex-usage", () => {
  it("finds the session's rollout among the dated directories", () => {
    const home = tempDir("codex-usage");
    expect(rolloutFile(home, SESSION)).toBeUndefined();
    const day = path.join(home, "sessions", "2026", "01", "02");
    fs.mkdirSync(day, { recursive: true });
    fs.writeFileSync(path.join(day, "rollout-2026-01-02T00-00-00-other.jsonl"), "");
    const mine = path.join(day, `rollout-2026-01-02T00-00-00-${SESSION}.jsonl`);
    fs.writeFileSync(mine, "");
    expect(rolloutFile(home, SESSION)).toBe(mine);
  });

  it("takes the last total, skipping token counts without info, other events and a half-written last line", () => {
    const text = [
      JSON.stringify({ type: "session_meta", payload: { id: SESSION } }),
      JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: null } }),
      tokenCount(100, 10),
      JSON.stringify({ type: "response_item", payload: { type: "message", content: "token_count" } }),
      tokenCount(250, 30, 80),
      tokenCount(400, 50).slice(0, 40),
    ].join("\n");
    expect(sessionTokens(text)).toEqual({ input: 250, cachedInput: 80, output: 30, reasoningOutput: 0 });
    expect(sessionTokens("")).toEqual(NO_TOKENS);
  });

  it("follows a growing rollout, a line codex is still writing read once it is whole, and moves to a newer rollout", () => {
    const home = tempDir("codex-usage");
    const reader = new RolloutTokens(home, SESSION);
    expect(reader.read()).toEqual(NO_TOKENS);
    const day = path.join(home, "sessions", "2026", "01", "02");
    fs.mkdirSync(day, { recursive: true });
    const first = path.join(day, `rollout-2026-01-02T00-00-00-${SESSION}.jsonl`);
    fs.writeFileSync(first, `${tokenCount(100, 10)}\n`);
    expect(reader.read()).toMatchObject({ input: 100, output: 10 });
    const half = tokenCount(300, 40);
    fs.appendFileSync(first, half.slice(0, 30));
    expect(reader.read()).toMatchObject({ input: 100, output: 10 });
    fs.appendFileSync(first, `${half.slice(30)}\n`);
    expect(reader.read()).toMatchObject({ input: 300, output: 40 });
    expect(reader.read()).toMatchObject({ input: 300, output: 40 });
    fs.writeFileSync(path.join(day, `rollout-2026-01-02T01-00-00-${SESSION}.jsonl`), `${tokenCount(20, 2)}\n`);
    expect(reader.read()).toMatchObject({ input: 20, output: 2 });
  });

  it("a turn's tokens are the difference of the totals around it", () => {
    expect(turnTokens({ input: 100, cachedInput: 0, output: 10, reasoningOutput: 0 }, { input: 250, cachedInput: 80, output: 30, reasoningOutput: 4 })).toEqual(
      {
        input: 150,
        cachedInput: 80,
        output: 20,
        reasoningOutput: 4,
      },
    );
  });
});
