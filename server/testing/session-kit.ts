/**
 * Session operations for domain tests, called the way the doors call them (./operations.ts). `supervise` plays the supervisor's part through the same runtime writes the real
 * one makes, so the domain's waits and state changes are tested without a process.
 */
import fs from "node:fs";
import path from "node:path";
import { api } from "../../lib/api/endpoints/index.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { findSession } from "../domain/sessions/sessions.repo.ts";
import { finishTurn, markLaunched, recordExit, startNextTurn, type TurnResult } from "../domain/sessions/runtime.ts";
import type { HubEventOf } from "../events/types.ts";
import type { TempHub } from "./temp-hub.ts";
import { operations } from "./operations.ts";

type Raw = Record<string, unknown>;

/** What a supervisor records when the process starts; the dir is never read in domain tests. */
const LAUNCHED = { pid: 4242, mode: "fresh", args: [] as string[], sandbox: "bubblewrap" as const, dir: "/nonexistent/session" };

/** A turn that went well; tests override what their case changes. */
const OK_TURN = {
  status: "completed",
  isError: false,
  subtype: "success",
  response: "ok",
  error: null,
  costDelta: 0.01,
  turns: 1,
  durationMs: 5,
  toolsUsed: [],
  permissionDenials: [],
  empty: false,
} as const satisfies Omit<TurnResult, "interactionId">;

/** `maxLive`: the admission limit the kit's operations apply (0, the default: none). */
export function sessionKit(hub: TempHub, actor: Principal = OPERATOR, { maxLive = 0 } = {}) {
  const workDir = path.join(hub.dir, "work");
  fs.mkdirSync(workDir, { recursive: true });
  const call = operations(hub, { sessionWorkDir: workDir, sandbox: "bubblewrap", maxLiveSessions: maxLive });
  const pk = async (name: string) => (await hub.db.read((sql) => findSession(sql, name)))!.pk;
  return {
    workDir,
    spawn: async (input: Raw, by = actor) => call(api.sessions.spawn, by, input),
    batch: async (sessions: Raw[]) => call(api.sessions.batch, actor, { sessions }),
    fork: async (input: Raw) => call(api.sessions.fork, actor, input),
    teamSpawn: async (input: Raw) => call(api.sessions.teamSpawn, actor, input),
    send: async (input: Raw) => call(api.sessions.send, actor, input),
    pause: async (name: string) => call(api.sessions.pause, actor, { name }),
    resume: async (name: string) => call(api.sessions.resume, actor, { name }),
    stop: async (name: string, wait = false) => call(api.sessions.stop, actor, { name, wait, waitTimeoutMs: 2000 }),
    kill: async (name: string, wait = false) => call(api.sessions.kill, actor, { name, wait, waitTimeoutMs: 2000 }),
    delegate: async (input: Raw) => call(api.sessions.delegate, actor, input),
    continue: async (input: Raw) => call(api.sessions.continue, actor, input),
    status: (name: string) => call(api.sessions.status, actor, { name }),
    pk,
    /** The process started: the session is idle (or starts its first queued turn). */
    launched: async (name: string) => markLaunched(hub, await pk(name), LAUNCHED),
    startTurn: async (name: string) => startNextTurn(hub, await pk(name)),
    finish: async (name: string, r: Partial<TurnResult> & { interactionId: number }) => finishTurn(hub, await pk(name), { ...OK_TURN, ...r }),
    exit: async (name: string, status: "stopped" | "killed" | "failed" | "interrupted" = "stopped") =>
      recordExit(hub, await pk(name), { status, reason: status, code: 0, signal: null, error: null, stderrTail: "" }),
    /**
     * Answers every turn of the named session with `answer(prompt)`, as a supervisor would:
     * launched when created or resumed, a result for each queued message. Returns an async stop.
     */
    supervise(name: string, answer: (prompt: string) => Partial<TurnResult>) {
      let chain = Promise.resolve();
      const step = async (e: HubEventOf<"session.created" | "session.resume_requested" | "session.message_queued">) => {
        if (e.payload.name !== name) return;
        if (e.type !== "session.message_queued") await markLaunched(hub, await pk(name), LAUNCHED);
        for (let turn = await startNextTurn(hub, await pk(name)); turn; turn = await startNextTurn(hub, await pk(name))) {
          await finishTurn(hub, await pk(name), { ...OK_TURN, interactionId: turn.id, ...answer(turn.prompt) });
        }
      };
      const unsubscribe = hub.bus.subscribe((events) => {
        for (const e of events)
          if (e.type === "session.created" || e.type === "session.resume_requested" || e.type === "session.message_queued") chain = chain.then(() => step(e));
      });
      return async () => {
        unsubscribe();
        await chain;
      };
    },
  };
}

export type SessionKit = ReturnType<typeof sessionKit>;
