/**
 * What a turn has spent so far, from the partial messages the CLI streams (`stream_event`
 * `message_start` carries a call's input tokens, `message_delta` its output tokens), priced at
 * Anthropic's list prices (pricesOf below). The CLI reports the real cost only
 * with the turn's result; this estimate exists so that a turn can be interrupted while it runs
 * when it crosses what its budgets had left (docs/budgets.md). The recorded cost stays the CLI's.
 * Tokens are counted the same way, for token budgets.
 */
import type { TurnTokens } from "../domain/sessions/runtime.ts";

type Usage = { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };

const tokensOf = (u: Usage): TurnTokens => ({
  input: u.input_tokens ?? 0,
  cacheWrite: u.cache_creation_input_tokens ?? 0,
  cacheRead: u.cache_read_input_tokens ?? 0,
  output: u.output_tokens ?? 0,
});

const NO_TOKENS: TurnTokens = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };

/** Field by field: sums of two calls, or the larger of two reports of one turn. */
export const addTokens = (a: TurnTokens, b: TurnTokens): TurnTokens => ({
  input: a.input + b.input,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  cacheRead: a.cacheRead + b.cacheRead,
  output: a.output + b.output,
});
export const maxTokens = (a: TurnTokens, b: TurnTokens): TurnTokens => ({
  input: Math.max(a.input, b.input),
  cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
  cacheRead: Math.max(a.cacheRead, b.cacheRead),
  output: Math.max(a.output, b.output),
});

/** What a token budget counts (budgets.repo.ts COUNTED_TOKENS): new input and output, not cache reads. */
export const countedTokens = (t: TurnTokens) => t.input + t.cacheWrite + t.output;

/** The CLI's `usage` of a turn as stored. */
export const turnTokens = (u: Usage | undefined): TurnTokens => (u ? tokensOf(u) : NO_TOKENS);

/** USD per million tokens, input and output; unknown models are priced at the default (opus) rates, as the CLI does. */
function pricesOf(model: string): [number, number] {
  if (/haiku/i.test(model)) return [1, 5];
  if (/sonnet/i.test(model)) return [3, 15];
  return [5, 25];
}

/** Cache writes cost 1.25 × input, cache reads 0.1 ×. */
function callCost(model: string, u: Usage): number {
  const [input, output] = pricesOf(model);
  const inTokens = (u.input_tokens ?? 0) + 1.25 * (u.cache_creation_input_tokens ?? 0) + 0.1 * (u.cache_read_input_tokens ?? 0);
  return (inTokens * input + (u.output_tokens ?? 0) * output) / 1_000_000;
}

export class UsageMeter {
  /** Calls that ended, and the one streaming now (by its own usage so far). */
  private ended = 0;
  private endedTokens = NO_TOKENS;
  private current: { model: string; usage: Usage } | null = null;

  get spentUsd(): number {
    return this.ended + (this.current ? callCost(this.current.model, this.current.usage) : 0);
  }

  /** The tokens streamed so far, by kind. */
  get tokens(): TurnTokens {
    return this.current ? addTokens(this.endedTokens, tokensOf(this.current.usage)) : this.endedTokens;
  }

  /** Takes one raw SSE event of the turn (top-level or a sub-agent's: both are paid for). */
  observe(event: { type?: unknown; message?: { model?: unknown; usage?: Usage }; usage?: Usage }): void {
    if (event.type === "message_start") {
      this.current = { model: typeof event.message?.model === "string" ? event.message.model : "", usage: { ...event.message?.usage } };
    } else if (event.type === "message_delta" && this.current) {
      // The delta's counts are cumulative for the call: they replace what message_start said.
      this.current.usage = { ...this.current.usage, ...event.usage };
    } else if (event.type === "message_stop" && this.current) {
      this.ended += callCost(this.current.model, this.current.usage);
      this.endedTokens = addTokens(this.endedTokens, tokensOf(this.current.usage));
      this.current = null;
    }
  }
}
