/**
 * Codex behind the seam (../agent.ts): codex-acp, in the session's sandbox, driven over the Agent Client Protocol. Its
 * updates are kept in the transcript in the vocabulary the dashboard renders — the prompt, the model's text, tool calls
 * with their results, permission requests and answers, the turn's result — each with the ACP message it came from.
 * Codex reports tokens only: a turn's are read from its rollout and priced from the runtime's table.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { PromptResponse, RequestPermissionRequest, RequestPermissionResponse, SessionNotification } from "@agentclientprotocol/sdk";
import { DomainError } from "../../errors.ts";
import type { Runtimes, ModelPrice } from "../../runtimes.ts";
import type { TurnTokens } from "../../domain/sessions/runtime.ts";
import type { AgentEvent, AgentHandlers, AgentLaunch, AgentProcess, Launched, PermissionAsk, Recorder, TranscriptLine, TurnEnd } from "../agent.ts";
import { exitReason, type Timing } from "../child-process.ts";
import { BASE_VARIABLES, picked } from "../launch.ts";
import { userMessage, type PermissionAnswer } from "../protocol.ts";
import { resolveCodexBin } from "./codex-bin.ts";
import { writeCodexHome } from "./codex-home.ts";
import { RolloutTokens, turnTokens, type CodexTokens } from "./codex-usage.ts";
import { startCodexAcp, type CodexAcp } from "./connection.ts";
import { hubTool } from "./tool-calls.ts";

/** The variable in codex's environment holding the member's token; config.toml names it, never holds it. */
export const TOKEN_VAR = "TEAMHUB_MCP_TOKEN";
/**
 * The hub's settings in every Codex session's config.toml: every command not known to only read asks the hub, whose
 * policy decides as for Claude; the hub's sandbox is the boundary (codex's own would need privileges it does not give).
 */
export const HUB_SETTINGS = { approval_policy: "untrusted", sandbox_mode: "danger-full-access" };
/** Codex writes a turn's token count to its rollout around the turn's end: how long the hub waits for it to appear. */
const TOKENS_WAIT_MS = 2_000;

export async function launchCodex(runtimes: Runtimes, l: AgentLaunch, handlers: AgentHandlers): Promise<Launched> {
  const { session: s, mode } = l;
  if (mode.kind === "fork") throw new DomainError("precondition_failed", `codex: ${runtimes.specs.codex.cannot.fork}`, { field: "runtime" });
  const spec = runtimes.specs.codex;
  const model = s.model ?? spec.defaultModel;
  const price = model ? spec.models?.[model] : undefined;
  if (!model || !price) throw new DomainError("precondition_failed", `codex: the model '${model}' has no price in TEAMHUB_CODEX_MODELS`, { field: "model" });
  const codexHome = path.join(l.dir, "codex");
  writeCodexHome(codexHome, {
    mcpUrl: `${l.hubUrl}/mcp`,
    tokenEnvVar: TOKEN_VAR,
    operatorToml: runtimes.codex.toml,
    settings: { model, ...HUB_SETTINGS },
  });
  const env = { ...picked(BASE_VARIABLES), ...runtimes.codex.env, ...l.portEnv, CODEX_HOME: fs.realpathSync(codexHome), [TOKEN_VAR]: l.token };
  const bin = resolveCodexBin({ CODEX_ACP_BIN: runtimes.codex.bin });
  const command = await l.sandboxed({ bin, args: [], env, hidden: [] });
  const agent = new CodexAgent(handlers, l.timing, price, model, codexHome, mode.kind === "fresh" ? s.systemPrompt : null);
  const acp = await startCodexAcp(
    { bin: command.bin, args: command.args, statusFd: command.statusFd, cwd: command.cwd, env, codexHome: env.CODEX_HOME },
    { onUpdate: (n) => agent.update(n), onPermission: (r, signal) => agent.permission(r, signal) },
  );
  try {
    await agent.open(acp, mode.kind === "resume" ? s.claudeSessionId : null, s.workDir);
  } catch (e) {
    await acp.stop();
    throw new Error(`codex-acp could not open the conversation: ${(e as Error).message}`, { cause: e });
  }
  return { process: agent, account: null, args: [bin] };
}

type Turn = {
  startedAt: number;
  tokensBefore: CodexTokens;
  /** The model's text since the last line recorded, kept until a tool call or the turn's end makes it one line. */
  text: string;
  said: string[];
  toolCalls: number;
  denials: Array<{ tool_name: string; tool_input: unknown }>;
  interrupted: boolean;
  done: Promise<void>;
};

type Pending = { request: RequestPermissionRequest; ask: PermissionAsk; resolve: (r: RequestPermissionResponse) => void };

class CodexAgent implements AgentProcess {
  private acp: CodexAcp | null = null;
  private sessionId = "";
  /** While session/load replays the conversation: those updates are in the transcript already. */
  private loading = false;
  private turn: Turn | null = null;
  private readonly pending = new Map<string, Pending>();
  private requests = 0;
  private requested: "stop" | "kill" | null = null;
  private exited = false;
  private rollout: RolloutTokens | null = null;

  constructor(
    private readonly handlers: AgentHandlers,
    private readonly timing: Timing,
    private readonly price: ModelPrice,
    private readonly model: string,
    private readonly codexHome: string,
    /** The session's system prompt: ACP has no place for one, so it opens the conversation's first turn. */
    private preamble: string | null,
  ) {}

  /** Opens the conversation; the runner hears of the process's end only once it has, a failure before being the launch's. */
  async open(acp: CodexAcp, resume: string | null, cwd: string): Promise<void> {
    this.acp = acp;
    void acp.exit.then(() => (this.exited = true));
    if (resume) {
      // What the agent cannot do is said with its reason, not met as a protocol error.
      if (!acp.agent.agentCapabilities?.loadSession)
        throw new Error(`${acp.agent.agentInfo?.name ?? "the agent"} cannot resume a conversation: it offers no session/load`);
      this.sessionId = resume;
      this.loading = true;
      await acp.loadSession(resume, cwd).finally(() => (this.loading = false));
    } else this.sessionId = (await acp.newSession(cwd)).sessionId;
    // As Claude's `system/init` line: the conversation a later launch resumes (the supervisor looks for it), and who answered.
    void acp.exit.then((e) => this.handlers.exited({ reason: e.error ? "spawn_failed" : exitReason(this.requested), ...e }));
    const init = { type: "system", subtype: "init", session_id: this.sessionId, model: this.model, agent: acp.agent.agentInfo ?? null };
    void this.handlers.receive(
      [{ direction: "out", type: "system", subtype: "init", payload: init }],
      [{ kind: "started", conversationId: this.sessionId, model: this.model }],
    );
  }

  get pid() {
    return this.acp?.pid;
  }

  get alive() {
    return this.acp !== null && !this.exited;
  }

  async send(prompt: string, recorded: Recorder): Promise<void> {
    await recorded({ direction: "in", type: "user", subtype: null, payload: userMessage(prompt) });
    const text = this.preamble ? `${this.preamble}\n\n${prompt}` : prompt;
    this.preamble = null;
    const turn: Turn = {
      startedAt: Date.now(),
      tokensBefore: this.tokens(),
      text: "",
      said: [],
      toolCalls: 0,
      denials: [],
      interrupted: false,
      done: Promise.resolve(),
    };
    this.turn = turn;
    turn.done = this.acp!.prompt(this.sessionId, text).then(
      (r) => this.ended(turn, r),
      (e: unknown) => this.ended(turn, null, errorText(e)),
    );
  }

  async answer(requestId: string, answer: PermissionAnswer, recorded: Recorder): Promise<void> {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    await recorded({
      direction: "in",
      type: "control_response",
      subtype: answer.behavior,
      payload: { type: "control_response", response: { subtype: "success", request_id: requestId, response: answer } },
    });
    const kinds = answer.behavior === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
    const option = kinds.map((k) => p.request.options.find((o) => o.kind === k)).find((o) => o);
    if (answer.behavior === "deny") this.turn?.denials.push({ tool_name: p.ask.tool, tool_input: p.ask.input });
    p.resolve(option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } });
  }

  async interrupt(): Promise<boolean> {
    if (!this.acp || !this.turn) return false;
    this.turn.interrupted = true;
    await this.acp.cancel(this.sessionId);
    return true;
  }

  /** A running turn may finish (within the stop grace period); then the process ends. */
  async stop(): Promise<unknown> {
    this.requested ??= "stop";
    const turn = this.turn;
    if (turn) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([turn.done, new Promise((r) => (timer = setTimeout(r, this.timing.stopGraceMs)))]);
      clearTimeout(timer);
    }
    return this.end();
  }

  async kill(): Promise<unknown> {
    this.requested = "kill";
    return this.end();
  }

  private async end(): Promise<unknown> {
    await this.acp?.stop();
    return this.acp?.exit;
  }

  update(n: SessionNotification): void {
    const turn = this.turn;
    if (this.loading || n.sessionId !== this.sessionId) return;
    const u = n.update;
    switch (u.sessionUpdate) {
      case "agent_message_chunk":
        if (u.content.type !== "text" || !turn) return;
        turn.text += u.content.text;
        return this.handlers.streaming(u.content.text);
      case "tool_call": {
        const tool = hubTool(u);
        if (turn) turn.toolCalls++;
        const said = this.flush(turn);
        const line = assistant([{ type: "tool_use", id: u.toolCallId, name: tool.name, input: tool.input }], u);
        return void this.handlers.receive([...said.lines, line], [...said.events, { kind: "used", tool: tool.name }]);
      }
      case "tool_call_update": {
        if (u.status !== "completed" && u.status !== "failed") return;
        const result = { type: "tool_result", tool_use_id: u.toolCallId, content: outputText(u), is_error: u.status === "failed" };
        const line: TranscriptLine = {
          direction: "out",
          type: "user",
          subtype: null,
          payload: { type: "user", message: { role: "user", content: [result] }, acp: u },
        };
        return void this.handlers.receive([line], []);
      }
      case "plan":
        return void this.handlers.receive([{ direction: "out", type: "plan", subtype: null, payload: { type: "plan", entries: u.entries } }], []);
      default:
        // Context use, commands and modes on offer: nothing the hub keeps.
        return;
    }
  }

  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const tool = hubTool(request.toolCall);
    const ask: PermissionAsk = { requestId: `${request.toolCall.toolCallId}#${++this.requests}`, tool: tool.name, input: tool.input };
    return new Promise((resolve) => {
      this.pending.set(ask.requestId, { request, ask, resolve });
      signal.addEventListener("abort", () => {
        if (!this.pending.delete(ask.requestId)) return;
        const line: TranscriptLine = {
          direction: "out",
          type: "control_cancel_request",
          subtype: null,
          payload: { type: "control_cancel_request", request_id: ask.requestId },
        };
        void this.handlers.receive([line], [{ kind: "withdrawn", requestId: ask.requestId }]);
        resolve({ outcome: { outcome: "cancelled" } });
      });
      const line: TranscriptLine = {
        direction: "out",
        type: "control_request",
        subtype: "can_use_tool",
        payload: {
          type: "control_request",
          request_id: ask.requestId,
          request: { subtype: "can_use_tool", tool_name: tool.name, input: tool.input, tool_use_id: request.toolCall.toolCallId },
          acp: request,
        },
      };
      void this.handlers.receive([line], [{ kind: "permission", ask }]);
    });
  }

  /** The text the model said since the last line, as one line of the transcript. */
  private flush(turn: Turn | null): { lines: TranscriptLine[]; events: AgentEvent[] } {
    if (!turn?.text) return { lines: [], events: [] };
    const text = turn.text;
    turn.text = "";
    turn.said.push(text);
    return { lines: [assistant([{ type: "text", text }], null, this.model)], events: [{ kind: "said", text }] };
  }

  private tokens(): CodexTokens {
    this.rollout ??= new RolloutTokens(this.codexHome, this.sessionId);
    return this.rollout.read();
  }

  /** The turn's tokens: codex may write the last count just after the prompt's answer, so a turn that ran waits a little for it. */
  private async turnTokens(turn: Turn): Promise<CodexTokens> {
    const deadline = Date.now() + TOKENS_WAIT_MS;
    let used = turnTokens(turn.tokensBefore, this.tokens());
    while (used.input === 0 && Date.now() < deadline && !this.exited) {
      await new Promise((r) => setTimeout(r, 25));
      used = turnTokens(turn.tokensBefore, this.tokens());
    }
    return used;
  }

  private async ended(turn: Turn, r: PromptResponse | null, failure?: string): Promise<void> {
    if (this.turn === turn) this.turn = null;
    // The agent's own time for the turn; waiting for its token count below is the hub's.
    const durationMs = Date.now() - turn.startedAt;
    const said = this.flush(turn);
    const used = r ? await this.turnTokens(turn) : turnTokens(turn.tokensBefore, this.tokens());
    const tokens: TurnTokens = { input: used.input - used.cachedInput, cacheWrite: 0, cacheRead: used.cachedInput, output: used.output };
    const end = outcome(r, failure, turn);
    const costUsd =
      (tokens.input * this.price.inputUsdPerMTok + tokens.cacheRead * this.price.cachedInputUsdPerMTok + tokens.output * this.price.outputUsdPerMTok) / 1e6;
    const turnEnd: TurnEnd = {
      ...end,
      result: null,
      costUsd,
      tokens,
      // One model request per tool call, and the one that answered.
      turns: turn.toolCalls + 1,
      durationMs,
      permissionDenials: turn.denials,
      apiErrorStatus: null,
    };
    const result: TranscriptLine = {
      direction: "out",
      type: "result",
      subtype: end.subtype,
      payload: {
        type: "result",
        subtype: end.subtype,
        is_error: end.isError,
        result: end.error ?? turn.said.join("\n"),
        num_turns: turnEnd.turns,
        duration_ms: turnEnd.durationMs,
        total_cost_usd: costUsd,
        usage: { input_tokens: tokens.input, cache_read_input_tokens: tokens.cacheRead, output_tokens: tokens.output },
        acp: r,
      },
    };
    await this.handlers.receive([...said.lines, result], [...said.events, { kind: "ended", end: turnEnd }]);
  }
}

/** How a prompt's stop reason reads in the hub: a turn a denial ended is complete (the command did not run). */
function outcome(r: PromptResponse | null, failure: string | undefined, turn: Turn): Pick<TurnEnd, "status" | "error" | "isError" | "subtype"> {
  if (!r) return { status: "error", error: failure ?? "the agent gave no answer", isError: true, subtype: "error" };
  switch (r.stopReason) {
    case "end_turn":
      return { status: "completed", error: null, isError: false, subtype: "end_turn" };
    case "cancelled":
      return turn.interrupted || turn.denials.length === 0
        ? { status: "interrupted", error: null, isError: true, subtype: "cancelled" }
        : { status: "completed", error: null, isError: false, subtype: "cancelled" };
    default:
      return { status: "error", error: `Codex stopped the turn: ${r.stopReason.replaceAll("_", " ")}`, isError: true, subtype: r.stopReason };
  }
}

function assistant(content: object[], acp: unknown, model?: string): TranscriptLine {
  return {
    direction: "out",
    type: "assistant",
    subtype: null,
    payload: { type: "assistant", message: { role: "assistant", ...(model ? { model } : {}), content }, parent_tool_use_id: null, ...(acp ? { acp } : {}) },
  };
}

/** A finished tool call's output: its text content, else what codex-acp reports of a command's output. */
function outputText(u: { content?: Array<{ type: string; content?: { type: string; text?: string } }> | null; rawOutput?: unknown }): string {
  const texts = (u.content ?? []).flatMap((c) => (c.type === "content" && c.content?.type === "text" && c.content.text ? [c.content.text] : []));
  if (texts.length) return texts.join("\n");
  const raw = (u.rawOutput ?? {}) as Record<string, unknown>;
  const out = raw.formatted_output ?? raw.aggregated_output ?? raw.stdout;
  return typeof out === "string" ? out : "";
}

/** An API's error body as codex-acp passes it on: OpenAI's `{error: {message}}`, or a bare `{message}`. */
const ErrorBody = z.union([
  z.object({ error: z.object({ message: z.string() }).loose() }).transform((b) => b.error.message),
  z.object({ message: z.string() }).transform((b) => b.message),
]);

/**
 * What the agent said went wrong: the details a JSON-RPC error carries (codex-acp puts the API's own error body there,
 * under a generic "Internal error"), else its message.
 */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const data = (e as { data?: unknown }).data;
  const detail = typeof data === "string" ? data : typeof (data as { message?: unknown })?.message === "string" ? (data as { message: string }).message : null;
  if (!detail) return e.message;
  let json: unknown;
  try {
    json = JSON.parse(detail);
  } catch {
    return detail;
  }
  const body = ErrorBody.safeParse(json);
  return body.success ? body.data : detail;
}
