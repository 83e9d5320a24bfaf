/**
 * An ACP agent's tool calls in the hub's terms (docs/runtimes.md#the-acp-mapping): the permission policy, the approval
 * cards and the transcript speak Claude Code's tool names (Bash, Edit, Read, mcp__teamhub__…), so a Codex member's
 * shell command is judged by the same rules as a Claude member's.
 */
import type { ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { HUB_SERVER } from "../policy.ts";

export type HubTool = { name: string; input: Record<string, unknown> };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** `["/bin/bash", "-lc", "<script>"]` is the script; any other argv is its words. */
function commandOf(raw: Obj): string | undefined {
  const command = raw.command;
  if (typeof command === "string") return command;
  if (!Array.isArray(command) || !command.every((w) => typeof w === "string")) return undefined;
  const words = command as string[];
  if (words.length === 3 && /(^|\/)(ba|z)?sh$/.test(words[0]) && /^-l?c$/.test(words[1])) return words[2];
  return words.join(" ");
}

/** The server and tool of an MCP call: codex-acp names them in the call's rawInput, or in its approval request. */
function mcpOf(raw: Obj): { server: string; tool: string; args: Obj } | undefined {
  const server = str(raw.server) ?? str(raw.server_name);
  if (!server) return undefined;
  const meta = obj(obj(raw.request)._meta);
  const tool = str(raw.tool) ?? str(meta.tool_name) ?? str(obj(raw.invocation).tool);
  const args = raw.arguments !== undefined ? obj(raw.arguments) : obj(meta.tool_params);
  return tool ? { server, tool, args } : undefined;
}

/** The tool a call (or an approval request for one) is, as the hub names it. */
export function hubTool(call: Pick<ToolCall | ToolCallUpdate, "kind" | "title" | "rawInput" | "locations">): HubTool {
  const raw = obj(call.rawInput);
  const mcp = mcpOf(raw);
  if (mcp) return { name: `mcp__${mcp.server}__${mcp.tool}`, input: mcp.args };
  const file = call.locations?.[0]?.path ?? str(raw.path) ?? Object.keys(obj(raw.changes))[0];
  switch (call.kind) {
    case "execute":
      return { name: "Bash", input: { command: commandOf(raw) ?? call.title ?? "" } };
    case "edit":
    case "delete":
    case "move":
      return { name: "Edit", input: { file_path: file ?? "" } };
    case "read":
      return { name: "Read", input: { file_path: file ?? "" } };
    case "search":
      return { name: "Grep", input: { pattern: call.title ?? "", ...(file ? { path: file } : {}) } };
    case "fetch":
      return { name: "WebFetch", input: { url: str(raw.url) ?? call.title ?? "" } };
    default:
      // Neither a command nor a file: the policy asks a person, who sees the agent's own title for it.
      return { name: call.title ?? "(tool)", input: raw };
  }
}

/** True for the hub's own MCP tools, which a member calls under its own identity. */
export const isHubTool = (name: string) => name.startsWith(`mcp__${HUB_SERVER}__`);
