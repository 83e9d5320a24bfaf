/**
 * `teamhub`: the CLI. Every command except `start` and `token` talks to the running hub over
 * HTTP with the operator token, so what it does is exactly what the dashboard and agents can do.
 */
import { Command } from "commander";
import { register as artifactGet } from "./commands/artifact-get.ts";
import { register as artifactHistory } from "./commands/artifact-history.ts";
import { register as artifactList } from "./commands/artifact-list.ts";
import { register as artifactPublish } from "./commands/artifact-publish.ts";
import { register as artifactReaders } from "./commands/artifact-readers.ts";
import { register as artifactTypes } from "./commands/artifact-types.ts";
import { register as contractCreate } from "./commands/contract-create.ts";
import { register as contractDependencies } from "./commands/contract-dependencies.ts";
import { register as contractGet } from "./commands/contract-get.ts";
import { register as contractList } from "./commands/contract-list.ts";
import { register as contractTransitions } from "./commands/contract-transitions.ts";
import { register as start } from "./commands/start.ts";
import { register as budgets } from "./commands/budgets.ts";
import { register as limits } from "./commands/limits.ts";
import { register as webhooks } from "./commands/webhooks.ts";
import { register as teams } from "./commands/teams.ts";
import { register as hubs } from "./commands/hubs.ts";
import { register as runtimes } from "./commands/runtimes.ts";
import { register as token } from "./commands/token.ts";
import { register as pipelines } from "./commands/pipelines.ts";
import { register as roster } from "./commands/roster.ts";
import { register as chat } from "./commands/chat.ts";
import { register as lineage } from "./commands/lineage.ts";
import { register as snapshots } from "./commands/snapshots.ts";
import { register as gate } from "./commands/gate.ts";
import { register as mcp } from "./commands/mcp.ts";
import { register as setup } from "./commands/setup.ts";
import { register as decisions } from "./commands/decisions.ts";
import { register as patterns } from "./commands/patterns.ts";
import { register as knowledge } from "./commands/knowledge.ts";
import { register as briefing } from "./commands/briefing.ts";
import { register as hook } from "./commands/hook.ts";
import { register as sessions } from "./commands/sessions.ts";
import { register as sessionControl } from "./commands/session-control.ts";
import { register as sessionOutput } from "./commands/session-output.ts";
import { register as delegateCommands } from "./commands/delegate.ts";
import { register as worktreeCommands } from "./commands/worktrees.ts";
import { register as runnableCommands } from "./commands/runnable.ts";
import { EXIT } from "./api-client.ts";

const program = new Command("teamhub")
  .description("Team Hub: coordinate teams of Claude Code sessions through artifacts and contracts")
  .option("--team <team>", "team (namespace)", "default")
  .option("--json", "print the hub's JSON response")
  .option("--url <url>", "hub URL (default: TEAMHUB_URL, the running hub's hub.json in the data directory, or http://127.0.0.1:3000)")
  .option("--token <token>", "bearer token (default: TEAMHUB_TOKEN or the operator token in the data directory)")
  .option("--data-dir <dir>", "the hub's data directory (default: TEAMHUB_DATA_DIR, ./data where an earlier version left one, else ~/.teamhub)")
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.badInput));

for (const register of [
  start,
  token,
  teams,
  hubs,
  runtimes,
  sessions,
  sessionControl,
  sessionOutput,
  delegateCommands,
  worktreeCommands,
  runnableCommands,
  artifactPublish,
  artifactGet,
  artifactList,
  artifactHistory,
  artifactReaders,
  artifactTypes,
  contractCreate,
  contractTransitions,
  contractGet,
  contractList,
  contractDependencies,
  lineage,
  pipelines,
  snapshots,
  gate,
  roster,
  chat,
  mcp,
  setup,
  decisions,
  patterns,
  knowledge,
  briefing,
  hook,
  budgets,
  limits,
  webhooks,
]) {
  register(program);
}

await program.parseAsync(process.argv);
