/**
 * For scripted team members: which member a request is for (the worker guide names it in the system prompt),
 * an MCP call as a reply, and the first step of a member woken by a contract notice (start the contract it names).
 */
import { prompt, type MessagesRequest } from "./request.ts";
import type { Reply } from "./server.ts";

export const memberOf = (req: MessagesRequest) => /You are \*\*([^*]+)\*\*/.exec(JSON.stringify(req.system))?.[1] ?? null;

export const mcp = (name: string, input: unknown): Reply => ({ tools: [{ name: `mcp__teamhub__${name}`, input }] });

/** A member's first reply to a prompt: the contract notice that woke it names the call to make; anything else it notes. */
export function startOnNotice(req: MessagesRequest, name: string): Reply {
  const ready = /It is ready: start it with contract_start\(\{id: "([^"]+)"\}\)/.exec(prompt(req));
  return ready ? mcp("contract_start", { id: ready[1] }) : { text: `${name}: noted` };
}
