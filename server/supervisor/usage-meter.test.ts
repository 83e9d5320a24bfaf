import { describe, expect, it } from "vitest";
import { UsageMeter, countedTokens } from "./usage-meter.ts";

const call = (m: UsageMeter, model: string, input: number, output: number) => {
  m.observe({ type: "message_start", message: { model, usage: { input_tokens: input, output_tokens: 1 } } });
  m.observe({ type: "content_block_delta" });
  m.observe({ type: "message_delta", usage: { output_tokens: output } });
  m.observe({ type: "message_stop" });
};

describe("UsageMeter", () => {
  it("prices each call at list prices as it streams, and sums the calls of a turn", () => {
    const m = new UsageMeter();
    m.observe({ type: "message_start", message: { model: "claude-opus-4-8", usage: { input_tokens: 40_000 } } });
    // Known from the start of the call: its input.
    expect(m.spentUsd).toBeCloseTo(0.2, 10);
    m.observe({ type: "message_delta", usage: { output_tokens: 4000 } });
    expect(m.spentUsd).toBeCloseTo(0.3, 10);
    m.observe({ type: "message_stop" });
    call(m, "claude-sonnet-5", 1_000_000, 0);
    call(m, "claude-haiku-4-5", 0, 1_000_000);
    call(m, "some-future-model", 0, 0);
    expect(m.spentUsd).toBeCloseTo(0.3 + 3 + 5, 10);
  });

  it("counts cache writes at 1.25× and cache reads at 0.1× the input price", () => {
    const m = new UsageMeter();
    m.observe({
      type: "message_start",
      message: { model: "claude-opus-4-8", usage: { input_tokens: 0, cache_creation_input_tokens: 1_000_000, cache_read_input_tokens: 1_000_000 } },
    });
    expect(m.spentUsd).toBeCloseTo(5 * 1.25 + 5 * 0.1, 10);
  });
});

describe("UsageMeter tokens", () => {
  it("sums each kind of token over the calls of a turn, the streaming one included, and counts all but cache reads", () => {
    const m = new UsageMeter();
    call(m, "claude-opus-4-5", 2000, 300);
    m.observe({
      type: "message_start",
      message: { model: "claude-opus-4-5", usage: { input_tokens: 10, cache_creation_input_tokens: 500, cache_read_input_tokens: 9000 } },
    });
    expect(m.tokens).toEqual({ input: 2010, cacheWrite: 500, cacheRead: 9000, output: 300 });
    expect(countedTokens(m.tokens)).toBe(2810);
  });
});
