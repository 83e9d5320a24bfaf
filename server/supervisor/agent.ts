/**
 * The seam between a session's runner and the agent it supervises (docs/runtimes.md#the-seam). The runner owns what
 * is the hub's whatever the agent: the queue, turns and their clocks, budgets, permission decisions and approvals,
 * usage limits and retries, the work tree. An adapter owns what differs: how the process is started, how a prompt
 * and a permission answer are sent, and how what the agent says becomes these neutral events.
 */
import type { TurnTokens } from "../domain/sessions/runtime.ts";
import type { PermissionAnswer } from "./protocol.ts";
import type { Exit, Timing } from "./child-process.ts";
import type { SessionRow } from "../db/rows.ts";
import type { StoredSafety } from "../../lib/api/sessions.ts";
import type { Account } from "./account.ts";
import type { LaunchMode } from "./launch.ts";
import type { SandboxCommand } from "./sandbox.ts";

/** A tool call the agent asks leave for, in the hub's terms: the policy decides on `tool` (Claude Code's names) and `input`. */
export type PermissionAsk = { requestId: string; tool: string; input: Record<string, unknown> };

/** How a turn ended, in the hub's terms. */
export type TurnEnd = {
  status: "completed" | "error" | "interrupted";
  /** Why a failed turn failed, in the agent's own words. */
  error: string | null;
  isError: boolean;
  /** The agent's own name for how it ended (Claude's result subtype, ACP's stop reason). */
  subtype: string;
  /** The agent's final answer when it gives one apart from what it said during the turn. */
  result: string | null;
  /** What this turn cost in dollars. */
  costUsd: number;
  tokens: TurnTokens;
  turns: number;
  durationMs: number | null;
  permissionDenials: unknown[];
  /** The HTTP status of an API refusal the agent gave up on (429, 529), for the runner's retries and limits. */
  apiErrorStatus: number | null;
};

/** A usage window's state as the agent reported it (docs/limits.md). */
export type LimitReport = { status: string; window: string | null; resetsAt: Date | null; utilization: number | null };

export type AgentEvent =
  /** The agent's conversation is known (its id, to resume it; the model it runs). */
  | { kind: "started"; conversationId: string; model: string | null }
  /** Text the model said in this turn (not a sub-agent's), and a tool it used. */
  | { kind: "said"; text: string }
  | { kind: "used"; tool: string }
  /** A raw usage event as it streams, for budgets that stop a turn while it runs. */
  | { kind: "streamed"; event: object }
  | { kind: "permission"; ask: PermissionAsk }
  /** The agent no longer waits for an answer to this request. */
  | { kind: "withdrawn"; requestId: string }
  | { kind: "limit"; report: LimitReport }
  /** The agent will retry a refused call itself after this long (the API's retry-after). */
  | { kind: "retry_after"; ms: number }
  | { kind: "ended"; end: TurnEnd };

/** A line for the session's transcript, in the vocabulary the dashboard renders (docs/runtimes.md#transcripts). */
export type TranscriptLine = { direction: "in" | "out"; type: string; subtype: string | null; payload: unknown };

export type Recorder = (line: TranscriptLine) => Promise<void>;

/** What an adapter tells its runner; each call is handled in order, after those before it have committed. */
export type AgentHandlers = {
  /** Transcript lines, then what they mean; resolves once they are handled. */
  receive(lines: TranscriptLine[], events: AgentEvent[]): Promise<void>;
  /** Text as the model streams it, shown live and not stored. */
  streaming(text: string): void;
  exited(exit: Exit): void;
};

/** One running agent process and its conversation. */
export interface AgentProcess {
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** Sends a turn's prompt once `recorded` has stored the line that says so (the agent is told only what has committed). */
  send(prompt: string, recorded: Recorder): Promise<void>;
  /** Answers a permission request, likewise once its line is stored. */
  answer(requestId: string, answer: PermissionAnswer, recorded: Recorder): Promise<void>;
  /** Ends the running turn; the process stays. False when the agent did not acknowledge it. */
  interrupt(): Promise<boolean>;
  /** Lets a running turn finish, then ends the process (escalating if it does not). */
  stop(): Promise<unknown>;
  /** Ends the process now. */
  kill(): Promise<unknown>;
}

/** The command that starts an agent, and the descriptor bubblewrap reports on when it runs in the sandbox. */
export type AgentCommand = SandboxCommand & { statusFd?: number };

/** What starting an agent needs from its runner; `sandboxed` wraps a command in the session's sandbox (or not). */
export type AgentLaunch = {
  session: SessionRow;
  safety: StoredSafety;
  mode: LaunchMode;
  /** The session's private dir (`<data>/sessions/<pk>`). */
  dir: string;
  /** Variables of its work tree's ports. */
  portEnv: Record<string, string>;
  /** The member's token for the hub's MCP server. */
  token: string;
  hubUrl: string;
  timing: Timing;
  sandboxed(command: { bin: string; args: string[]; env: Record<string, string>; hidden: string[]; mcpConfigFile?: string }): Promise<AgentCommand>;
};

export type Launched = { process: AgentProcess; account: Account | null; args: string[] };
