/**
 * What a turn has spent so far, from the partial messages the CLI streams (`stream_event`
 * `message_start` carries a call's input tokens, `message_delta` its output tokens), priced at
 * Anthropic's list prices (pricesOf below). The CLI reports the real cost only
 * with the turn's result; this estimate exists so that a turn can be interrupted while it runs
 * when it crosses what its budgets had left (docs/budgets.md). The recorded cost stays the CLI's.
 */

type Usage = { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };

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
  private current: { model: string; usage: Usage } | null = null;

  get spentUsd(): number {
    return this.ended + (this.current ? callCost(this.current.model, this.current.usage) : 0);
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
      this.current = null;
    }
  }
}
