/**
 * A scripted model for session tests: the prompt says what the model does, one directive per
 * line, so each test's expectations sit next to its input and replies are decided from the
 * request itself (retries and wake-ups just work).
 *
 *   @bash <command>           call Bash
 *   @edit <file>|<old>|<new>  call Edit          @write <file>|<content>  call Write
 *   @read <file>              call Read
 *   @mcp <tool> <json>        call mcp__teamhub__<tool>
 *   @sleep <ms>               delay the final reply      @hang  never answer
 *   @drip <ms>                stream the final text a word at a time, <ms> apart
 *   @hold <n>                 after the final text's first <n> words, wait for the test's `fake.release()`
 *   @error <status>           answer with an API error
 *   @usage <in> <out>         token usage of every reply (drives the CLI's cost)
 *   @reply <text>             the final text; "\n" in it is a line break (default: "pong: <prompt>" or the tool results)
 *
 * Tool directives run one per round trip, in order; the final text follows the last one.
 */
import type { Reply } from "./server.ts";
import { allPrompts, prompt as lastPrompt, type MessagesRequest, toolResults } from "./request.ts";

export type Directive = { verb: string; arg: string };

const TOOL_VERBS = new Set(["bash", "edit", "write", "read", "mcp"]);

export function directivesOf(text: string): Directive[] {
  return text
    .split("\n")
    .map((l) => /^@(\w+)\s*(.*)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ verb: m[1], arg: m[2] }));
}

function toolCall(d: Directive): { name: string; input: unknown } {
  switch (d.verb) {
    case "bash":
      return { name: "Bash", input: { command: d.arg, description: "scripted" } };
    case "read":
      return { name: "Read", input: { file_path: d.arg } };
    case "write": {
      const [file_path, content] = d.arg.split("|");
      return { name: "Write", input: { file_path, content } };
    }
    case "edit": {
      const [file_path, old_string, new_string] = d.arg.split("|");
      return { name: "Edit", input: { file_path, old_string, new_string } };
    }
    default: {
      const space = d.arg.indexOf(" ");
      const name = space < 0 ? d.arg : d.arg.slice(0, space);
      return { name: `mcp__teamhub__${name}`, input: space < 0 ? {} : JSON.parse(d.arg.slice(space + 1)) };
    }
  }
}

/** How many tool rounds have completed since the user's last typed message. */
export function roundsSinceLastPrompt(req: MessagesRequest): number {
  let rounds = 0;
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== "user") continue;
    if (typeof m.content === "string") break;
    const blocks = m.content;
    if (blocks.some((b) => b.type === "tool_result")) rounds++;
    if (blocks.some((b) => b.type === "text" && !b.text?.startsWith("<system-reminder>") && !b.text?.startsWith("[Request interrupted"))) break;
  }
  return rounds;
}

/** The reply the directives in the prompt ask for; `fallback` decides prompts without directives. */
export function directiveModel(fallback?: (req: MessagesRequest) => Reply | Promise<Reply> | undefined) {
  return async (req: MessagesRequest): Promise<Reply> => {
    const text = lastTurnPrompt(req);
    const directives = directivesOf(text);
    if (directives.length === 0) {
      const custom = await fallback?.(req);
      return custom ?? { text: `pong: ${text}` };
    }
    const usage = directives
      .find((d) => d.verb === "usage")
      ?.arg.split(/\s+/)
      .map(Number);
    const withUsage = <R extends Reply>(r: R): R => (usage ? { ...r, usage: { input_tokens: usage[0], output_tokens: usage[1] } } : r);
    const err = directives.find((d) => d.verb === "error");
    if (err) return { error: Number(err.arg), message: "scripted failure", retry: false };
    if (directives.some((d) => d.verb === "hang")) return { hang: true };
    const tools = directives.filter((d) => TOOL_VERBS.has(d.verb));
    const round = roundsSinceLastPrompt(req);
    if (round < tools.length) return withUsage({ tools: [toolCall(tools[round])] });
    const sleep = directives.find((d) => d.verb === "sleep");
    const drip = directives.find((d) => d.verb === "drip");
    const holdAfter = directives.filter((d) => d.verb === "hold").map((d) => Number(d.arg));
    const final = directives.find((d) => d.verb === "reply")?.arg.replaceAll("\\n", "\n");
    const results = toolResults(req).map((r) => `${r.name}${r.isError ? " ERROR" : ""}: ${r.text}`);
    return withUsage({
      text: final ?? (results.length ? results.join("\n") : `pong: ${text}`),
      delayMs: sleep ? Number(sleep.arg) : undefined,
      dripMs: drip ? Number(drip.arg) : undefined,
      holdAfter,
    });
  };
}

/** The last typed prompt, looking past tool-result turns to the message that started this turn. */
export function lastTurnPrompt(req: MessagesRequest): string {
  const typed = allPrompts(req).filter((p) => !p.startsWith("[Request interrupted"));
  return toolResults(req).length ? (typed[typed.length - 1] ?? "") : lastPrompt(req) || (typed[typed.length - 1] ?? "");
}
