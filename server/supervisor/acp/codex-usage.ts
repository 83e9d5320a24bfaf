/**
 * A Codex turn's tokens. ACP's `usage_update` says how full the context is (per request), not what a
 * turn used, so the hub reads codex's own count: the `token_count` events of the session's rollout,
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`, whose totals grow over the session.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

export type CodexTokens = { input: number; cachedInput: number; output: number; reasoningOutput: number };

export const NO_TOKENS: CodexTokens = { input: 0, cachedInput: 0, output: 0, reasoningOutput: 0 };

const TokenUsage = z.object({
  input_tokens: z.number(),
  cached_input_tokens: z.number().default(0),
  output_tokens: z.number(),
  reasoning_output_tokens: z.number().default(0),
});

const TokenCountLine = z.object({
  type: z.literal("event_msg"),
  payload: z.object({ type: z.literal("token_count"), info: z.object({ total_token_usage: TokenUsage }).nullable() }),
});

/** The session's rollout file, or undefined before codex has written one. */
export function rolloutFile(codexHome: string, sessionId: string): string | undefined {
  const root = path.join(codexHome, "sessions");
  if (!fs.existsSync(root)) return undefined;
  const suffix = `-${sessionId}.jsonl`;
  const found = fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f).startsWith("rollout-") && f.endsWith(suffix))
    .sort();
  return found.length > 0 ? path.join(root, found[found.length - 1]) : undefined;
}

/** The last total codex recorded in these lines (lines it has not finished writing are skipped); null: none. */
function lastTotals(rolloutText: string): CodexTokens | null {
  let tokens: CodexTokens | null = null;
  for (const line of rolloutText.split("\n")) {
    if (!line.includes('"token_count"')) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = TokenCountLine.safeParse(json);
    const total = parsed.success ? parsed.data.payload.info?.total_token_usage : undefined;
    if (total) {
      tokens = {
        input: total.input_tokens,
        cachedInput: total.cached_input_tokens,
        output: total.output_tokens,
        reasoningOutput: total.reasoning_output_tokens,
      };
    }
  }
  return tokens;
}

/** The session's tokens so far, from its whole rollout. */
export const sessionTokens = (rolloutText: string): CodexTokens => lastTotals(rolloutText) ?? NO_TOKENS;

/**
 * A session's tokens as its rollout grows: each read parses only the whole lines written since the last one, so a turn
 * costs what it added to the rollout, not the session's history. When the file has not grown, the newest rollout of the
 * session is looked for again (a resumed session may have begun another), and a new one is read from its start.
 */
export class RolloutTokens {
  private file: string | undefined;
  private offset = 0;
  private totals = NO_TOKENS;

  constructor(
    private readonly codexHome: string,
    private readonly sessionId: string,
  ) {}

  read(): CodexTokens {
    if (this.file && this.grew()) return this.totals;
    const newest = rolloutFile(this.codexHome, this.sessionId);
    if (newest && newest !== this.file) {
      Object.assign(this, { file: newest, offset: 0, totals: NO_TOKENS });
      this.grew();
    }
    return this.totals;
  }

  /** Takes in the whole lines written since the last read; false when there were none. */
  private grew(): boolean {
    const fd = fs.openSync(this.file!, "r");
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.offset) return false;
      const chunk = Buffer.alloc(size - this.offset);
      fs.readSync(fd, chunk, 0, chunk.length, this.offset);
      // A line codex is still writing is read again, whole, next time.
      const end = chunk.lastIndexOf(0x0a) + 1;
      this.offset += end;
      this.totals = lastTotals(chunk.subarray(0, end).toString("utf8")) ?? this.totals;
      return end > 0;
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** A turn's tokens: the session's totals after it less those before it. */
export function turnTokens(before: CodexTokens, after: CodexTokens): CodexTokens {
  return {
    input: after.input - before.input,
    cachedInput: after.cachedInput - before.cachedInput,
    output: after.output - before.output,
    reasoningOutput: after.reasoningOutput - before.reasoningOutput,
  };
}
