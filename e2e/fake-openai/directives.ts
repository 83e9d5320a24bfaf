/**
 * A scripted model for the Codex tests: the prompt says what the model does, one directive per
 * line, as for the fake Anthropic API, so replies are decided from the request itself.
 *
 *   @shell <command>      call exec_command
 *   @mcp <tool> <json>    call <tool> of the `mcp__teamhub` namespace
 *   @plan <step>|<status>; …   call update_plan with those steps
 *   @usage <in> <out>     token usage of every reply
 *   @sleep <ms>           delay every reply
 *   @fail <status> <text> refuse the request with that HTTP status and message
 *   @reply <text>         the final text (default: "pong: <prompt>", or the tool outputs)
 *
 * Tool directives run one per round trip, in order; the final text follows the last one.
 */
import { prompt, roundsSincePrompt, toolOutputs, type ResponsesRequest } from "./request.ts";
import type { Reply, Usage } from "./server.ts";
import { directivesOf, type Directive } from "../fake-anthropic/directives.ts";

const TOOL_VERBS = new Set(["shell", "mcp", "plan"]);

function toolCall(d: Directive): { name: string; namespace?: string; arguments: string } {
  if (d.verb === "shell") return { name: "exec_command", arguments: JSON.stringify({ cmd: d.arg }) };
  if (d.verb === "plan") {
    const plan = d.arg.split(";").map((s) => {
      const [step, status] = s.split("|").map((x) => x.trim());
      return { step, status };
    });
    return { name: "update_plan", arguments: JSON.stringify({ plan }) };
  }
  const space = d.arg.indexOf(" ");
  const name = space < 0 ? d.arg : d.arg.slice(0, space);
  return { name, namespace: "mcp__teamhub", arguments: space < 0 ? "{}" : d.arg.slice(space + 1) };
}

function usageOf(directives: Directive[]): Usage | undefined {
  const d = directives.find((x) => x.verb === "usage");
  if (!d) return undefined;
  const [input, output] = d.arg.split(/\s+/).map(Number);
  return { input_tokens: input, output_tokens: output };
}

/** The reply the directives in the request's prompt ask for. */
export async function directiveModel(req: ResponsesRequest): Promise<Reply> {
  const text = prompt(req);
  const directives = directivesOf(text);
  const sleep = directives.find((d) => d.verb === "sleep");
  if (sleep) await new Promise((resolve) => setTimeout(resolve, Number(sleep.arg)).unref());
  const fail = directives.find((d) => d.verb === "fail");
  if (fail) {
    const space = fail.arg.indexOf(" ");
    return { error: { status: Number(fail.arg.slice(0, space)), message: fail.arg.slice(space + 1) } };
  }
  const usage = usageOf(directives);
  const tools = directives.filter((d) => TOOL_VERBS.has(d.verb));
  const round = roundsSincePrompt(req);
  if (round < tools.length) return { call: toolCall(tools[round]), usage };
  const reply = directives.find((d) => d.verb === "reply")?.arg.replaceAll("\\n", "\n");
  const outputs = toolOutputs(req);
  return { text: reply ?? (outputs.length > 0 ? outputs.join("\n") : `pong: ${text}`), usage };
}
