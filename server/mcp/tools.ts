/** Every tool of the product, in the order clients list them: the operations agents get (server/operations/), then the agents' own. */
import { ALL } from "../operations/index.ts";
import { AGENT_TOOLS } from "./agent-tools.ts";
import { toolOf, type ToolDef } from "./tool.ts";

export const TOOLS: ToolDef[] = [...ALL.flatMap((d) => toolOf(d) ?? []), ...AGENT_TOOLS];
