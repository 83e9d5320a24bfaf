import { PRESETS, SendInput } from "../../../lib/api/sessions.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { Flag } from "../../../lib/api/common.ts";
import { tool } from "../tool.ts";
import { LIMIT, TEAM } from "./common.ts";

const NAME = "Session name: letters, digits, '.', '_' or '-' (e.g. 'api-dev').";
const PRESET = `Permission preset: ${PRESETS.join(", ")}. read-only/review: read and search only; edit (default): edits allowed, shell commands ask a person; full: everything; plan: no execution. Protected paths (.env*, .git/, node_modules/, credentials/) are always denied.`;
const SPAWN_FIELDS = {
  team: TEAM,
  name: NAME,
  prompt: "The first message; omit to start the session idle.",
  runtime:
    "The agent it runs, a name from the hub's runtimes (runtimes_list): claude (default) for Claude Code, codex for OpenAI's Codex. " +
    "Codex takes only the models the hub lists for it, runs no `agent`, and cannot be forked.",
  model:
    "Model alias or id, e.g. 'sonnet', 'opus', 'haiku'. Omit for the CLI's default (claude) or the hub's default model (a runtime that lists its models, codex).",
  workDir: "Absolute working directory: inside your own work dir when you are a session (the default), inside the team's root for member tokens.",
  preset: `${PRESET} No wider than your own preset (sessions) or the team's maxPreset (members); order read-only = plan < review < edit < full.`,
  allowedTools: "Extra rules the hub allows without asking, e.g. ['Bash(npm test:*)'].",
  systemPrompt: "Text appended to the session's system prompt.",
  agent: "A Claude Code agent to run as.",
  maxBudgetUsd: "Budget passed to the CLI (--max-budget-usd).",
  maxTurns: "Safety limit on model turns over the session (default 50).",
  safety:
    "{enabled, maxCostUsd (default 2), maxTurns (50), timeoutMs per interaction (300000), protectedPaths (added to the built-in ones)}. " +
    "Only the operator or a lead may switch it off; a session gives at most what it has left itself.",
  approvalTimeoutMs: "How long a permission request waits for a person before it is denied (default 300000).",
  isolation:
    "worktree: a git work tree on branch teamhub/<team>/<name> of its own, so parallel sessions never write over each other; shared: the work dir as it is. " +
    "Default: the team's setting (worktree for team members in a git repository).",
  base: "The branch its work tree starts from and is merged into (default: the branch checked out in the work dir's repository).",
};
const WAIT = "Wait for the reply (default true here); false returns as soon as the message is queued.";
const WAIT_TIMEOUT = "How long to wait in ms (default 600000); the message is still processed after that.";

/** Agents want the answer in the tool result; waiting is their default. */
const AgentSendInput = SendInput.extend({ wait: Flag.default(true) });

export const sessionTools = [
  tool({
    name: "spawn_session",
    title: "Start a session",
    description:
      "Start a supervised session (one long-lived agent process: Claude Code by default, or another runtime such as codex) with an optional first message. Returns the session; follow it with get_session_status, " +
      "send_message or get_last_output. Its tool calls go through the hub's permission policy; some may wait for a person.",
    endpoint: api.sessions.spawn,
    describe: SPAWN_FIELDS,
  }),
  tool({
    name: "batch_spawn",
    title: "Start several sessions",
    description: "Start up to 50 sessions at once, all or none: one bad entry (named in the error) starts nothing.",
    endpoint: api.sessions.batch,
    describe: {
      sessions: "Sessions as for spawn_session: [{name, prompt, runtime, model, preset, …}]; each entry may name its own runtime (claude default, codex).",
    },
  }),
  tool({
    name: "team_spawn",
    title: "Start a team member",
    description:
      "Start a session that joins the team roster as a member with its own hub identity and the worker guide; it is woken when its contracts become ready or messages arrive. " +
      "With phase-gate enforcement (the default), spawns more than 5 s after the previous batch need a passing phase_gate first.",
    endpoint: api.sessions.teamSpawn,
    describe: { ...SPAWN_FIELDS, role: "The member's role, e.g. 'backend'.", prompt: "Its first task; omit to let it wait for contracts and messages." },
  }),
  tool({
    name: "send_message",
    title: "Send a message to a session",
    description:
      "Send a user message to a session and (by default) wait for its reply; a stopped session is resumed first, a busy or paused one queues the message. " +
      "Returns {session, interaction: {response, costUsd, turns, status, …}, completed}.",
    schema: AgentSendInput,
    describe: { name: NAME, message: "The message.", wait: WAIT, waitTimeoutMs: WAIT_TIMEOUT },
    kind: "write",
    run: (s, actor, input, signal) => s.sessions.send(actor, input, signal),
  }),
  tool({
    name: "resume_session",
    title: "Resume a session",
    description: "Resume a paused session, or relaunch a stopped, interrupted, failed or killed one with its conversation (claude --resume).",
    endpoint: api.sessions.resume,
    describe: { name: NAME },
  }),
  tool({
    name: "pause_session",
    title: "Pause a session",
    description: "Pause a session: its process stays alive and a running turn finishes, but new messages queue until resume_session.",
    endpoint: api.sessions.pause,
    describe: { name: NAME },
  }),
  tool({
    name: "fork_session",
    title: "Fork a session",
    description: "Start a new session from another session's conversation so far; the original is unchanged.",
    endpoint: api.sessions.fork,
    describe: {
      name: "The session to fork.",
      newName: "Name of the new session.",
      prompt: "First message of the fork.",
      model: "Model for the fork (default: the parent's).",
    },
  }),
  tool({
    name: "stop_session",
    title: "Stop a session",
    description: "Stop gracefully: the current turn finishes, the process exits, and the conversation can be resumed later.",
    endpoint: api.sessions.stop,
    describe: { name: NAME, wait: "Wait until the process has exited (default true).", waitTimeoutMs: "How long to wait, in ms (default 60000)." },
  }),
  tool({
    name: "kill_session",
    title: "Kill a session",
    description: "End a session now: interrupt, then SIGTERM, then SIGKILL. The conversation up to the last finished turn can still be resumed.",
    endpoint: api.sessions.kill,
    describe: { name: NAME, wait: "Wait until the process has exited (default true).", waitTimeoutMs: "How long to wait, in ms (default 60000)." },
  }),
  tool({
    name: "get_session_status",
    title: "Session status",
    description:
      "A session's state, cost, turns, queued messages, the running interaction, pending permission requests and safety violations, " +
      'and `problem`: what is wrong with it in words ("cost limit: $0.40 spent of $0.05", "last turn failed: API Error: 500 …"), null when nothing is.',
    endpoint: api.sessions.status,
    describe: { name: NAME },
  }),
  tool({
    name: "get_last_output",
    title: "Last output",
    description: "The last response of a session and the interaction it came from.",
    endpoint: api.sessions.output,
    describe: { name: NAME },
  }),
  tool({
    name: "runtimes_list",
    title: "List the runtimes",
    description:
      "The agents a session can run on this hub, for the `runtime` of spawn_session, team_spawn, batch_spawn and delegate_task: each runtime's name, " +
      "protocol, models with their prices per million tokens (null: any model the agent knows), default model, and what it cannot do with the reason.",
    endpoint: api.runtimes.list,
  }),
  tool({
    name: "list_sessions",
    title: "List sessions",
    description: "Sessions, newest first, optionally of one team or in one state; each with its `problem` (what is wrong with it, or null).",
    endpoint: api.sessions.list,
    describe: { team: "Only this team's sessions.", status: "Only sessions in this state.", limit: LIMIT },
  }),
  tool({
    name: "get_history",
    title: "Session history",
    description: "Every interaction of a session with its prompt, response, cost, turns, duration and tools used.",
    endpoint: api.sessions.history,
    describe: { name: NAME, limit: LIMIT },
  }),
  tool({
    name: "delete_session",
    title: "Delete a session",
    description: "Delete a session with its transcript and history; a running process is killed first. Events about it stay in the team's event log.",
    endpoint: api.sessions.delete,
    describe: { name: NAME },
  }),
  tool({
    name: "delegate_task",
    title: "Delegate a task",
    description:
      "Run one task in a new session under a safety net and wait for the outcome: {status: completed | needs_input | failed | cost_exceeded | turns_exceeded | timed_out, " +
      "response, cost, turns, duration, canContinue, toolsUsed, safety, error}; a used-up team, member or contract budget returns cost_exceeded at once with error 'blocked: budget — …' (the task stays queued until the budget is raised). " +
      "Follow up with continue_task, accept with finish_task, or abort_task.",
    endpoint: api.sessions.delegate,
    describe: {
      team: TEAM,
      name: NAME,
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
  }),
  tool({
    name: "continue_task",
    title: "Continue a delegated task",
    description: "Send a follow-up (a correction, an answer to its question) to a delegated session and wait for the outcome, reported like delegate_task.",
    endpoint: api.sessions.continue,
    describe: { name: NAME, message: "The follow-up." },
  }),
  tool({
    name: "finish_task",
    title: "Finish a delegated task",
    description: "Accept the work: stop the delegated session gracefully (it stays resumable). Returns its totals.",
    endpoint: api.sessions.finish,
    describe: { name: NAME },
  }),
  tool({
    name: "abort_task",
    title: "Abort a delegated task",
    description: "Kill the delegated session now, whatever it is doing. Returns its totals.",
    endpoint: api.sessions.abort,
    describe: { name: NAME },
  }),
];
