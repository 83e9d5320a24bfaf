/** The baseline for the MCP figures: a tool that does nothing but answer, registered only by the benchmark. */
import { z } from "zod";
import { tool } from "../../server/mcp/tool.ts";

export const echoTool = tool({
  name: "bench_echo",
  title: "Echo (benchmark only)",
  description: "Returns its argument; registered by the benchmark as the cost of the transport alone.",
  schema: z.object({ team: z.string().default("default"), id: z.string() }),
  kind: "read",
  run: async (_s, _actor, input) => ({ id: input.id }),
});
