/** Every endpoint of the HTTP API, by service (docs/wire.md). */
import { artifacts } from "./artifacts.ts";
import { auth } from "./auth.ts";
import { budgets } from "./budgets.ts";
import { chat } from "./chat.ts";
import { continuity } from "./continuity.ts";
import { contracts } from "./contracts.ts";
import { events } from "./events.ts";
import { gate } from "./gate.ts";
import { graph } from "./graph.ts";
import { health } from "./health.ts";
import { hubs } from "./hubs.ts";
import { knowledge } from "./knowledge.ts";
import { leads } from "./leads.ts";
import { limits } from "./limits.ts";
import { lineage } from "./lineage.ts";
import { overview } from "./overview.ts";
import { pipelines } from "./pipelines.ts";
import { roster } from "./roster.ts";
import { runtimes } from "./runtimes.ts";
import { sessions } from "./sessions.ts";
import { snapshots } from "./snapshots.ts";
import { teams } from "./teams.ts";
import { webhooks } from "./webhooks.ts";
import { worktrees } from "./worktrees.ts";

export const api = {
  artifacts,
  auth,
  budgets,
  chat,
  continuity,
  contracts,
  events,
  gate,
  graph,
  health,
  hubs,
  knowledge,
  leads,
  limits,
  lineage,
  overview,
  pipelines,
  roster,
  runtimes,
  sessions,
  snapshots,
  teams,
  webhooks,
  worktrees,
};
