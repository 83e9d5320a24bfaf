/**
 * Claude Code behind the seam (agent.ts): the `claude` CLI in stream-json mode, started with the session's own config
 * dir and the hub's MCP server, its stdout lines kept in the transcript as they are and read into neutral events.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writePrivateFile } from "../data-dir.ts";
import type { ClaudeConfig } from "../env.ts";
import { ClaudeProcess, type Timing } from "./child-process.ts";
import { sessionConfig } from "./config-dir.ts";
import { costDelta, freshTracker, type CostTracker } from "./cost.ts";
import { childEnv, claudeArgs, mcpConfig, resolveClaudeBin } from "./launch.ts";
import { isSynthetic, permissionResponse, turnOutcome, userMessage, type OutputMessage, type PermissionAnswer, type Result } from "./protocol.ts";
import { turnTokens } from "./usage-meter.ts";
import { accountOf } from "./account.ts";
import type { AgentCommand, AgentEvent, AgentHandlers, AgentLaunch, AgentProcess, Launched, Recorder, TranscriptLine } from "./agent.ts";

/** `rate_limit_event.rate_limit_info` as the CLI (2.1.x) prints it; `resetsAt` in seconds since the epoch. */
const RateLimitInfo = z
  .object({
    status: z.string(),
    resetsAt: z.number().optional(),
    rateLimitType: z.string().optional(),
    utilization: z.number().optional(),
  })
  .loose();

export async function launchClaude(config: ClaudeConfig, l: AgentLaunch, handlers: AgentHandlers): Promise<Launched> {
  const { session: s, mode } = l;
  const conversation =
    mode.kind === "fork"
      ? { id: mode.from, parentSessionDir: mode.parentDir, through: mode.through }
      : mode.kind === "resume"
        ? { id: s.claudeSessionId! }
        : null;
  const own = await sessionConfig(childEnv(config), l.dir, conversation);
  const env = { ...own.env, ...l.portEnv };
  const bin = resolveClaudeBin(config, env);
  fs.mkdirSync(l.dir, { recursive: true, mode: 0o700 });
  const mcpConfigFile = path.join(l.dir, "mcp.json");
  writePrivateFile(mcpConfigFile, JSON.stringify(mcpConfig(l.hubUrl, l.token), null, 2));
  const args = claudeArgs(s, l.safety, mode, mcpConfigFile);
  const command = await l.sandboxed({ bin, args, env, hidden: own.userConfig, mcpConfigFile });
  const agent = new ClaudeAgent(command, env, handlers, l.timing, freshTracker(mode.kind !== "fresh", s.costUsd));
  return { process: agent, account: accountOf(env), args };
}

class ClaudeAgent implements AgentProcess {
  private readonly proc: ClaudeProcess;

  constructor(
    command: AgentCommand,
    env: Record<string, string>,
    private readonly handlers: AgentHandlers,
    timing: Timing,
    private readonly cost: CostTracker,
  ) {
    this.proc = new ClaudeProcess(
      command.bin,
      command.args,
      { cwd: command.cwd, env, statusFd: command.statusFd },
      {
        onMessage: (raw, msg) => this.message(raw, msg),
        onNoise: (line) => void handlers.receive([{ direction: "out", type: "noise", subtype: null, payload: { line } }], []),
        onExit: (exit) => handlers.exited(exit),
      },
      timing,
    );
  }

  get pid() {
    return this.proc.pid;
  }

  get alive() {
    return this.proc.alive;
  }

  async send(prompt: string, recorded: Recorder): Promise<void> {
    const line = userMessage(prompt);
    await recorded({ direction: "in", type: "user", subtype: null, payload: line });
    this.proc.write(line);
  }

  async answer(requestId: string, answer: PermissionAnswer, recorded: Recorder): Promise<void> {
    const line = permissionResponse(requestId, answer);
    await recorded({ direction: "in", type: "control_response", subtype: answer.behavior, payload: line });
    this.proc.write(line);
  }

  interrupt = () => this.proc.interrupt();
  stop = () => this.proc.stop();
  kill = () => this.proc.kill();

  private message(raw: Record<string, unknown>, msg: OutputMessage): void {
    if (msg.kind === "text_delta") {
      if (!msg.msg.parent_tool_use_id) this.handlers.streaming(msg.msg.event.delta.text);
      return;
    }
    // The other partial events (message and block starts and stops, tool input as it streams) add
    // nothing the complete messages do not hold, and would multiply the transcript's size.
    if (raw.type === "stream_event") {
      if (typeof raw.event === "object" && raw.event !== null) this.handlers.receive([], [{ kind: "streamed", event: raw.event }]);
      return;
    }
    const line: TranscriptLine = {
      direction: "out",
      type: typeof raw.type === "string" ? raw.type : "unknown",
      subtype: typeof raw.subtype === "string" ? raw.subtype : msg.kind === "can_use_tool" ? "can_use_tool" : null,
      payload: raw,
    };
    void this.handlers.receive([line], [...limitEvents(raw), ...this.events(msg)]);
  }

  /** What a line means. */
  private events(msg: OutputMessage): AgentEvent[] {
    switch (msg.kind) {
      case "init":
        this.cost.cliVersion = msg.msg.claude_code_version ?? this.cost.cliVersion;
        return [{ kind: "started", conversationId: msg.msg.session_id, model: msg.msg.model ?? null }];
      case "assistant": {
        if (msg.msg.parent_tool_use_id || isSynthetic(msg.msg)) return [];
        const out: AgentEvent[] = [];
        for (const block of msg.msg.message.content) {
          if (block.type === "text" && block.text) out.push({ kind: "said", text: block.text });
          if (block.type === "tool_use" && block.name) out.push({ kind: "used", tool: block.name });
        }
        return out;
      }
      case "can_use_tool":
        return [{ kind: "permission", ask: { requestId: msg.msg.request_id, tool: msg.msg.request.tool_name, input: msg.msg.request.input } }];
      case "control_cancel":
        return [{ kind: "withdrawn", requestId: msg.msg.request_id }];
      case "control_request": {
        // Requests we do not serve (SDK hooks, in-process MCP) must still be answered or the CLI waits.
        const answer = {
          type: "control_response",
          response: { subtype: "error", request_id: msg.msg.request_id, error: `Team Hub does not handle '${msg.msg.request.subtype}'` },
        };
        void this.handlers.receive([{ direction: "in", type: "control_response", subtype: "error", payload: answer }], []).then(() => this.proc.write(answer));
        return [];
      }
      case "result":
        return [{ kind: "ended", end: this.ended(msg.msg) }];
      default:
        return [];
    }
  }

  private ended(r: Result) {
    const outcome = turnOutcome(r);
    return {
      ...outcome,
      isError: r.is_error,
      subtype: r.subtype,
      result: r.result ?? null,
      costUsd: costDelta(this.cost, r.total_cost_usd),
      tokens: turnTokens(r.usage),
      turns: r.num_turns,
      durationMs: r.duration_ms ?? null,
      permissionDenials: r.permission_denials,
      apiErrorStatus: r.api_error_status ?? null,
    };
  }
}

/** What the CLI says of the account's usage and of the API's retries (docs/limits.md). */
function limitEvents(raw: Record<string, unknown>): AgentEvent[] {
  if (raw.type === "system" && raw.subtype === "api_retry" && typeof raw.retry_delay_ms === "number") return [{ kind: "retry_after", ms: raw.retry_delay_ms }];
  if (raw.type !== "rate_limit_event") return [];
  const info = RateLimitInfo.safeParse(raw.rate_limit_info);
  if (!info.success) return [];
  return [
    {
      kind: "limit",
      report: {
        status: info.data.status,
        window: info.data.rateLimitType ?? null,
        resetsAt: info.data.resetsAt ? new Date(info.data.resetsAt * 1000) : null,
        utilization: info.data.utilization ?? null,
      },
    },
  ];
}
