import type { ToolDef } from "../tool.ts";
import { artifactTools } from "./artifacts.ts";
import { budgetTools } from "./budgets.ts";
import { chatTools } from "./chat.ts";
import { continuityTools } from "./continuity.ts";
import { contractTools } from "./contracts.ts";
import { knowledgeTools } from "./knowledge.ts";
import { limitTools } from "./limits.ts";
import { lineageTools } from "./lineage.ts";
import { pipelineTools } from "./pipelines.ts";
import { snapshotTools } from "./snapshots.ts";
import { teamTools } from "./team.ts";
import { sessionTools } from "./sessions.ts";
import { webhookTools } from "./webhooks.ts";
import { worktreeTools } from "./worktrees.ts";

/** Every tool of the product, in the order clients list them. */
export const TOOLS: ToolDef[] = [
  ...artifactTools,
  ...contractTools,
  ...lineageTools,
  ...pipelineTools,
  ...snapshotTools,
  ...teamTools,
  ...sessionTools,
  ...worktreeTools,
  ...chatTools,
  ...continuityTools,
  ...knowledgeTools,
  ...budgetTools,
  ...limitTools,
  ...webhookTools,
];
