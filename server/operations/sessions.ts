/** Supervised sessions (docs/sessions.md), their permission requests, and the runtimes they can run on. */
import { batchSpawn, forkSession, spawnSession, teamSpawn } from "../domain/sessions/spawn.service.ts";
import { cleanupSessions, deleteSession, killSession, pauseSession, resumeSession, sendMessage, stopSession } from "../domain/sessions/control.service.ts";
import { lastOutput, listSessions, sessionHistory, sessionStatus, transcript } from "../domain/sessions/queries.service.ts";
import { countApprovals, decideApproval, decideApprovals, listApprovals } from "../domain/sessions/approvals.ts";
import { retryTurn } from "../domain/sessions/retry.ts";
import { abortTask, continueTask, delegate, finishTask } from "../domain/sessions/delegate.service.ts";
import { listRuntimes } from "../domain/runtimes/runtimes.service.ts";
import { area } from "./define.ts";
import { ADMINISTRATION, A_PERSONS_DECISION, A_VIEW, LIMIT, SESSION_NAME, TEAM } from "./fields.ts";
import { PRESET, SPAWN_FIELDS } from "./spawn-fields.ts";

export const sessions = area("sessions", {
  spawn: {
    may: "session.spawn",
    serve: ({ deps, defaults, preflight }, a, i) => preflight([i.runtime], () => spawnSession(deps, a, i, defaults)),
    mcp: {
      name: "spawn_session",
      title: "Start a session",
      description:
        "Start a supervised session (one long-lived agent process: Claude Code by default, or another runtime such as codex) with an optional first message. Returns the session; follow it with get_session_status, " +
        "send_message or get_last_output. Its tool calls go through the hub's permission policy; some may wait for a person.",
      describe: SPAWN_FIELDS,
    },
  },
  batch: {
    may: "session.spawn",
    serve: ({ deps, defaults, preflight }, a, i) =>
      preflight(
        i.sessions.map((s) => s.runtime),
        () => batchSpawn(deps, a, i, defaults),
      ),
    mcp: {
      name: "batch_spawn",
      title: "Start several sessions",
      description: "Start up to 50 sessions at once, all or none: one bad entry (named in the error) starts nothing.",
      describe: {
        sessions: "Sessions as for spawn_session: [{name, prompt, runtime, model, preset, …}]; each entry may name its own runtime (claude default, codex).",
      },
    },
  },
  teamSpawn: {
    may: "session.spawn",
    serve: ({ deps, defaults, preflight }, a, i) => preflight([i.runtime], () => teamSpawn(deps, a, i, defaults)),
    mcp: {
      name: "team_spawn",
      title: "Start a team member",
      description:
        "Start a session that joins the team roster as a member with its own hub identity and the worker guide; it is woken when its contracts become ready or messages arrive. " +
        "With phase-gate enforcement (the default), spawns more than 5 s after the previous batch need a passing phase_gate first.",
      describe: { ...SPAWN_FIELDS, role: "The member's role, e.g. 'backend'.", prompt: "Its first task; omit to let it wait for contracts and messages." },
    },
  },
  resume: {
    may: "session.resume",
    serve: ({ deps, defaults }, a, i) => resumeSession(deps, a, i, defaults.maxLive),
    mcp: {
      name: "resume_session",
      title: "Resume a session",
      description: "Resume a paused session, or relaunch a stopped, interrupted, failed or killed one with its conversation (claude --resume).",
      describe: { name: SESSION_NAME },
    },
  },
  pause: {
    may: "session.pause",
    serve: ({ deps }, a, i) => pauseSession(deps, a, i),
    mcp: {
      name: "pause_session",
      title: "Pause a session",
      description: "Pause a session: its process stays alive and a running turn finishes, but new messages queue until resume_session.",
      describe: { name: SESSION_NAME },
    },
  },
  fork: {
    may: "session.fork",
    // A fork runs its parent's runtime, and only the default one can fork (forkSession refuses the others).
    serve: ({ deps, defaults, preflight }, a, i) => preflight([undefined], () => forkSession(deps, a, i, defaults)),
    mcp: {
      name: "fork_session",
      title: "Fork a session",
      description: "Start a new session from another session's conversation so far; the original is unchanged.",
      describe: {
        name: "The session to fork.",
        newName: "Name of the new session.",
        prompt: "First message of the fork.",
        model: "Model for the fork (default: the parent's).",
      },
    },
  },
  stop: {
    may: "session.stop",
    serve: ({ deps }, a, i) => stopSession(deps, a, i),
    mcp: {
      name: "stop_session",
      title: "Stop a session",
      description: "Stop gracefully: the current turn finishes, the process exits, and the conversation can be resumed later.",
      describe: { name: SESSION_NAME, wait: "Wait until the process has exited (default true).", waitTimeoutMs: "How long to wait, in ms (default 60000)." },
    },
  },
  kill: {
    may: "session.kill",
    serve: ({ deps }, a, i) => killSession(deps, a, i),
    mcp: {
      name: "kill_session",
      title: "Kill a session",
      description: "End a session now: interrupt, then SIGTERM, then SIGKILL. The conversation up to the last finished turn can still be resumed.",
      describe: { name: SESSION_NAME, wait: "Wait until the process has exited (default true).", waitTimeoutMs: "How long to wait, in ms (default 60000)." },
    },
  },
  status: {
    may: "member",
    serve: ({ deps }, a, i) => sessionStatus(deps, a, i),
    mcp: {
      name: "get_session_status",
      title: "Session status",
      description:
        "A session's state, cost, turns, queued messages, the running interaction, pending permission requests and safety violations, " +
        'and `problem`: what is wrong with it in words ("cost limit: $0.40 spent of $0.05", "last turn failed: API Error: 500 …"), null when nothing is.',
      describe: { name: SESSION_NAME },
    },
  },
  output: {
    may: "session.read",
    serve: ({ deps }, a, i) => lastOutput(deps, a, i),
    mcp: {
      name: "get_last_output",
      title: "Last output",
      description: "The last response of a session and the interaction it came from.",
      describe: { name: SESSION_NAME },
    },
  },
  list: {
    may: "member",
    serve: ({ deps }, a, i) => listSessions(deps, a, i),
    mcp: {
      name: "list_sessions",
      title: "List sessions",
      description: "Sessions, newest first, optionally of one team or in one state; each with its `problem` (what is wrong with it, or null).",
      describe: { team: "Only this team's sessions.", status: "Only sessions in this state.", limit: LIMIT },
    },
  },
  history: {
    may: "session.read",
    serve: ({ deps }, a, i) => sessionHistory(deps, a, i),
    mcp: {
      name: "get_history",
      title: "Session history",
      description: "Every interaction of a session with its prompt, response, cost, turns, duration and tools used.",
      describe: { name: SESSION_NAME, limit: LIMIT },
    },
  },
  delete: {
    may: "session.delete",
    serve: ({ deps }, a, i) => deleteSession(deps, a, i),
    mcp: {
      name: "delete_session",
      title: "Delete a session",
      description: "Delete a session with its transcript and history; a running process is killed first. Events about it stay in the team's event log.",
      describe: { name: SESSION_NAME },
    },
  },
  delegate: {
    may: "session.spawn",
    serve: ({ deps, defaults, preflight }, a, i, signal) => preflight([i.runtime], () => delegate(deps, a, i, defaults, signal)),
    mcp: {
      name: "delegate_task",
      title: "Delegate a task",
      description:
        "Run one task in a new session under a safety net and wait for the outcome: {status: completed | needs_input | failed | cost_exceeded | turns_exceeded | timed_out, " +
        "response, cost, turns, duration, canContinue, toolsUsed, safety, error}; a used-up team, member or contract budget returns cost_exceeded at once with error 'blocked: budget — …' (the task stays queued until the budget is raised). " +
        "Follow up with continue_task, accept with finish_task, or abort_task.",
      describe: {
        team: TEAM,
        name: SESSION_NAME,
        task: "What to do.",
        context: "Background put before the task.",
        runtime: SPAWN_FIELDS.runtime,
        model: SPAWN_FIELDS.model,
        preset: PRESET,
        workDir: SPAWN_FIELDS.workDir,
        systemPrompt: SPAWN_FIELDS.systemPrompt,
        agent: SPAWN_FIELDS.agent,
        maxCost: "Cost limit in USD (default 2).",
        maxTurns: "Limit on model turns (default 50).",
        timeout: "Time limit per interaction in ms (default 300000).",
        safety: "false removes the cost, turn and time limits (protected paths stay denied).",
      },
    },
  },
  continue: {
    may: "session.send",
    serve: ({ deps, defaults }, a, i, signal) => continueTask(deps, a, i, defaults.maxLive, signal),
    mcp: {
      name: "continue_task",
      title: "Continue a delegated task",
      description: "Send a follow-up (a correction, an answer to its question) to a delegated session and wait for the outcome, reported like delegate_task.",
      describe: { name: SESSION_NAME, message: "The follow-up." },
    },
  },
  finish: {
    may: "session.stop",
    serve: ({ deps }, a, i) => finishTask(deps, a, i),
    mcp: {
      name: "finish_task",
      title: "Finish a delegated task",
      description: "Accept the work: stop the delegated session gracefully (it stays resumable). Returns its totals.",
      describe: { name: SESSION_NAME },
    },
  },
  abort: {
    may: "session.kill",
    serve: ({ deps }, a, i) => abortTask(deps, a, i),
    mcp: {
      name: "abort_task",
      title: "Abort a delegated task",
      description: "Kill the delegated session now, whatever it is doing. Returns its totals.",
      describe: { name: SESSION_NAME },
    },
  },
  send: {
    may: "session.send",
    serve: ({ deps, defaults }, a, i, signal) => sendMessage(deps, a, i, defaults.maxLive, signal),
    mcp: { none: "send_message carries it, waiting for the reply unless told not to" },
  },
  retry: {
    may: "session.send",
    serve: ({ deps, defaults }, a, i) => retryTurn(deps, a, i, defaults.maxLive),
    mcp: { none: "a person's retry of a failed turn from the dashboard; an agent sends the message again" },
  },
  cleanup: {
    may: "sessions.cleanup",
    serve: ({ deps }, a, i) => cleanupSessions(deps, a, i),
    mcp: { none: ADMINISTRATION },
  },
  transcript: {
    may: "session.read",
    serve: ({ deps }, a, i) => transcript(deps, a, i),
    mcp: { none: A_VIEW },
  },
  approvals: {
    may: "member",
    serve: ({ deps }, a, i) => listApprovals(deps, a, i),
    mcp: { none: A_PERSONS_DECISION },
  },
  approvalCount: {
    may: "member",
    serve: ({ deps }, _, i) => countApprovals(deps, i),
    mcp: { none: A_PERSONS_DECISION },
  },
  decide: {
    may: "approval.decide",
    serve: ({ deps }, a, i) => decideApproval(deps, a, i),
    mcp: { none: A_PERSONS_DECISION },
  },
  decideMany: {
    may: "approval.decide",
    serve: ({ deps }, a, i) => decideApprovals(deps, a, i),
    mcp: { none: A_PERSONS_DECISION },
  },
});

export const runtimes = area("runtimes", {
  list: {
    may: "member",
    serve: async ({ info }) => listRuntimes(info.runtimes),
    mcp: {
      name: "runtimes_list",
      title: "List the runtimes",
      description:
        "The agents a session can run on this hub, for the `runtime` of spawn_session, team_spawn, batch_spawn and delegate_task: each runtime's name, " +
        "protocol, models with their prices per million tokens (null: any model the agent knows), default model, and what it cannot do with the reason.",
    },
  },
});
