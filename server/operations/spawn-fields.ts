/** What MCP clients are told of the fields every door that creates a session shares (spawn, batch, team_spawn, delegate). */
import { PRESETS } from "../../lib/api/sessions.ts";
import { SESSION_NAME, TEAM } from "./fields.ts";

export const PRESET = `Permission preset: ${PRESETS.join(", ")}. read-only/review: read and search only; edit (default): edits allowed, shell commands ask a person; full: everything; plan: no execution. Protected paths (.env*, .git/, node_modules/, credentials/) are always denied.`;
export const SPAWN_FIELDS = {
  team: TEAM,
  name: SESSION_NAME,
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
