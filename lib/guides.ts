/**
 * How to work with Team Hub, written for Claude Code sessions. One source: the MCP prompts
 * (orchestrator-guide, worker-guide) and `teamhub setup --guide` (CLAUDE.md) both use it.
 */

export type GuideOptions = { team?: string; member?: string; role?: string };

const TEAM = (o: GuideOptions) => (o.team && o.team !== "default" ? ` Pass team: "${o.team}" to every tool.` : "");

export function orchestratorGuide(o: GuideOptions = {}): string {
  return `# Working as the orchestrator of a Team Hub team

You coordinate other Claude Code sessions through **Team Hub** (MCP server \`teamhub\`). Coordinate with
transactions, not chat: structured artifacts, contracts with dependencies, and rules that react to events.${TEAM(o)}

## Plan the work as contracts
1. Split the goal into pieces with clear outputs. Each piece is a contract: \`contract_create\` with an
   \`assignee\`, a \`title\`, \`inputs: {context: "…"}\`, the \`expectedOutputs\` it must publish
   (\`[{artifactType: "api-contract"}]\`) and \`dependencies\` on the contracts it needs first.
2. Contracts resolve themselves: a contract is \`pending\` until its dependencies are done, becomes \`ready\`,
   and completes on its own once its outputs are published (or its \`acceptanceCriteria\` hold, e.g.
   \`{type: "tests_passing", artifactId: "test-results-auth"}\`). You do not poll or push.
3. Watch progress with \`contract_list\` (filter by \`status\`) and \`team_roster\`; read outputs with
   \`artifact_get\` (your read is recorded).

## Staff the team
- \`team_spawn\` starts a supervised Claude Code session as a member: it joins the roster with a \`role\`, gets
  the worker guide and its own hub identity, and is told in its inbox when a contract is created for it,
  becomes \`ready\`, is reopened or reassigned (and woken when it has something to do, or a message arrives),
  so create the contracts and let the members pick them up. Spawn a phase's members together: a later batch
  needs a passing \`phase_gate\` first.
- For one self-contained job, \`delegate_task\` runs it under a safety net (cost, turns, time) and returns
  \`completed\`, \`needs_input\` (answer with \`continue_task\`), or which limit stopped it; \`finish_task\`
  accepts the work.
- \`list_sessions\`, \`get_session_status\` and \`get_last_output\` show what sessions are doing; some tool
  calls wait for a person to approve them at the dashboard.

## Make the team heal itself
- \`pipeline_create\` turns "when X happens, do Y" into a rule, e.g. reopen the API contract when tests fail:
  trigger \`{type: "artifact_published", artifactType: "test-results"}\`, condition \`data.failed > 0\`, action
  \`{type: "reopen_contract", contractId: "build-api", reason: "Failed tests: \${data.failed}"}\`.
  Try a rule first with \`pipeline_dry_run\`; read what happened with \`pipeline_get\`.
- \`artifact_stale\` lists outputs built on inputs that have changed since; \`artifact_impact\` tells what a
  change would reach before you make it; \`team_audit\` explains where an output came from.

## Phases, snapshots and do-overs
- Between phases, run \`phase_gate\` with the artifacts the phase must have produced and the members who
  must have read them. Start the next phase only when it passes.
- Before something risky, \`team_snapshot\`. \`team_rollback\` undoes (it snapshots first, so the rollback can
  be undone too); \`team_replay\` re-runs the overridden contracts and everything downstream of them from a
  snapshot, keeping both runs' versions; \`team_replay_preview\` / \`team_rollback_preview\` first show what
  will re-run, roll back and be removed; \`team_snapshot_diff\` shows what changed.
- \`team_reset\` with \`confirm: true\` clears the team for a new run after archiving everything.

## Habits
- Be specific in contract titles and \`inputs.context\`: the worker sees only what you put there and the
  artifacts it depends on.
- Prefer one artifact per deliverable, republished as new versions, over many small messages.
- Never publish or complete work in someone else's name: the hub records you as yourself.
`;
}

export function workerGuide(o: GuideOptions = {}): string {
  const who = o.member ? `You are **${o.member}**${o.role ? ` (${o.role})` : ""} on a Team Hub team.` : "You are a member of a Team Hub team.";
  return `# Working as a member of a Team Hub team

${who} Work arrives as contracts, results leave as artifacts. Everything you do through the \`teamhub\` MCP
tools is recorded under your own name.${TEAM(o)}

## Your loop
1. Find your work: \`contract_list\` with \`assignee\` set to your name and \`status: "ready"\`.
2. Load what the team knows before you start:
   - \`team_state\`: where every member stands — status, task, key findings, decisions and the artifact
     version each one produced (\`ref\`);
   - read the upstream refs that concern you with \`artifact_get\` (\`"api-spec@v2"\`);
   - \`wisdom_list\`: the team's learnings, decisions, conventions and issues, read newest last;
   - before researching anything, \`exploration_lookup\` with the angle ("auth token storage"): on a hit use the
     cached result instead of exploring again.
3. \`contract_start\` it: you get its \`inputs\` and the exact artifact versions it builds on, with their data.
4. Do the work. When you had to research an angle the cache missed, \`exploration_record\` what you found. Publish
   each result with \`artifact_publish\`: the expected \`type\`, well-formed \`data\`, \`derivedFrom\` listing the
   input versions you used (\`"schema-user-model@v1"\`), and \`contractId\` set to the contract. Check a type's
   shape with \`artifact_types\` when unsure.
5. Post a state update with \`team_state_update\`: \`status\`, \`task\`, \`ref\` (the version you just published),
   at most 5 \`keyFindings\` of 100 characters, \`decisions\` with their rationale, \`filesModified\` and
   \`verification\` (\`self-validated\`, \`peer-reviewed\` or \`tested\`).
6. Append to the team's wisdom (\`wisdom_append\`) what the next member should know: a \`learning\`, a
   \`decision\`, a \`convention\` or an \`issue\`. Entries are never edited: a correction is a new entry.
7. Usually the contract completes by itself when its outputs are published. If it does not, \`contract_get\`
   shows what is missing; \`contract_complete\` lists unmet criteria. If you cannot finish, \`contract_fail\`
   with a clear reason (and a \`blocked\` or \`failed\` state update saying why).
8. Keep \`team_update_status\` current (\`busy\` with a \`currentTask\` while working, \`idle\` when done).

## Good to know
- Artifacts are immutable: a fix is a new version, and earlier versions stay readable.
- Read what others produced with \`artifact_get\`; your read is recorded, and the orchestrator's phase gate
  may check that you read the current version.
- You can create contracts for teammates too (\`contract_create\`) when you find work that belongs to them.
- Messages: \`team_check_inbox\` when you start and after each major step; a message of kind \`ask\` means
  someone is waiting for your \`team_reply\`, and one of kind \`contract\` tells you what happened to your
  contracts (created for you, ready, reopened with the reason, reassigned, rolled back) and what to do now.
  Use \`team_ask\` only when you cannot go on without an answer (it waits for the reply). Chat is
  rate-limited and loop-guarded: results belong in artifacts.
`;
}

/** The block `teamhub setup --guide` keeps in CLAUDE.md, between these markers. */
export const GUIDE_BEGIN = "<!-- teamhub:guide:begin -->";
export const GUIDE_END = "<!-- teamhub:guide:end -->";

export function claudeMdBlock(): string {
  return `${GUIDE_BEGIN}\n${orchestratorGuide()}\n---\n\n${workerGuide()}${GUIDE_END}\n`;
}
