/**
 * One codex-acp process and the ACP client that drives it over its stdio (JSON-RPC, a message a line).
 * The SDK parses what the agent sends against the protocol's own zod schemas before a handler sees it,
 * so the callbacks below get typed, checked updates and permission requests.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type InitializeResponse,
  type LoadSessionResponse,
  type McpServer,
  type NewSessionResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { stdioWith } from "../sandbox.ts";
import { CODEX_STOP_GRACE_MS } from "./codex-bin.ts";

export type CodexLaunch = {
  /** The native codex-acp (resolveCodexBin), or bubblewrap running it (`args` then its command line). */
  bin: string;
  args?: string[];
  /** A descriptor bubblewrap reports its status on, which must be open in the child. */
  statusFd?: number;
  /** The session's CODEX_HOME, its config.toml written (writeCodexHome). */
  codexHome: string;
  /** Where codex-acp runs; each session's work dir is given again in session/new. */
  cwd: string;
  /** The whole environment codex-acp gets: nothing else is inherited. CODEX_HOME is set from codexHome. */
  env: Record<string, string>;
};

export type AcpCallbacks = {
  onUpdate(notification: SessionNotification): void;
  /** The hub's answer to a permission request: one of its options, or cancelled. */
  onPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** The process ended without stop(): a crash, or the agent quitting. */
  onExit?(reason: string): void;
};

/** How codex-acp ended; `error` when it could not start. */
export type AcpExit = { code: number | null; signal: NodeJS.Signals | null; stderrTail: string; error?: string };

export type CodexAcp = {
  readonly pid: number;
  /** Resolves when the process has ended, however it ended. */
  readonly exit: Promise<AcpExit>;
  readonly agent: InitializeResponse;
  newSession(cwd: string, mcpServers?: McpServer[]): Promise<NewSessionResponse>;
  loadSession(sessionId: string, cwd: string, mcpServers?: McpServer[]): Promise<LoadSessionResponse | void>;
  /** Resolves when the turn ends, with why (end_turn, cancelled, …); the turn's content arrives through onUpdate. */
  prompt(sessionId: string, text: string): Promise<PromptResponse>;
  cancel(sessionId: string): Promise<void>;
  /** SIGTERM to codex-acp and what it started, SIGKILL after a grace period: it does not exit when its stdin closes. */
  stop(): Promise<void>;
};

const STDERR_KEPT = 4_000;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // Its own process group, so shell commands the agent started end with it.
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/** Starts codex-acp and initializes the connection; rejects naming the binary and the reason when it cannot start. */
export async function startCodexAcp(launch: CodexLaunch, callbacks: AcpCallbacks): Promise<CodexAcp> {
  const env: Record<string, string> = { ...launch.env, CODEX_HOME: launch.codexHome };
  const child = spawn(launch.bin, launch.args ?? [], {
    cwd: launch.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: stdioWith(launch.statusFd),
    detached: true,
  }) as ChildProcessWithoutNullStreams;
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  let stopping = false;
  const exit = new Promise<AcpExit>((resolve) => {
    child.once("error", (e) => resolve({ code: null, signal: null, stderrTail: stderr, error: `codex-acp could not start (${launch.bin}): ${e.message}` }));
    child.once("exit", (code, signal) => resolve({ code, signal, stderrTail: stderr }));
  });
  // Why the connection ended, in words: the start's failure, or the exit with the end of what it wrote to stderr.
  const ended = exit.then(({ code, signal, stderrTail, error }) => {
    const tail = stderrTail.trim() ? `: ${stderrTail.trim().split("\n").slice(-5).join("\n")}` : "";
    return new Error(error ?? `codex-acp exited (${signal ?? `code ${code}`})${tail}`);
  });

  const app = client({ name: "teamhub" })
    .onNotification("session/update", ({ params }) => callbacks.onUpdate(params))
    .onRequest("session/request_permission", ({ params, signal }) => callbacks.onPermission(params, signal));
  // A spawn failure leaves stdio half-made; it is reported from `ended`, not from the streams.
  child.stdin.on("error", () => {});
  const connection: ClientConnection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  void ended.then((reason) => {
    connection.close(reason);
    if (!stopping) callbacks.onExit?.(reason.message);
  });

  const stop = async () => {
    stopping = true;
    connection.close();
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), CODEX_STOP_GRACE_MS);
    await exit;
    clearTimeout(timer);
  };

  const agentSide = connection.agent;
  let agent: InitializeResponse;
  try {
    agent = await Promise.race([
      agentSide.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        // The hub offers no file system or terminal of its own: codex reads, writes and runs commands itself, in its sandbox.
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "teamhub", version: "1" },
      }),
      ended.then((e) => Promise.reject(e)),
    ]);
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    pid: child.pid!,
    exit,
    agent,
    newSession: (cwd, mcpServers = []) => agentSide.request("session/new", { cwd, mcpServers }),
    loadSession: (sessionId, cwd, mcpServers = []) => agentSide.request("session/load", { sessionId, cwd, mcpServers }),
    prompt: (sessionId, text) => agentSide.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
    cancel: (sessionId) => agentSide.notify("session/cancel", { sessionId }),
    stop,
  };
}
