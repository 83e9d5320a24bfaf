/**
 * One MCP server (per /mcp session, or for `teamhub mcp` over stdio): the product's tools,
 * artifacts/contracts/pipelines/snapshots as resources (subscribable, with id completions), the
 * orchestrator and worker guides as prompts, and logging. Who is calling comes from `identify`:
 * the bearer token of each HTTP request, or the token `teamhub mcp` was started with.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { orchestratorGuide, workerGuide } from "../../lib/guides.ts";
import type { Principal } from "../domain/principal.ts";
import type { Services } from "../services.ts";
import { callTool, inputJsonSchema, outputJsonSchema, type ToolDef } from "./tool.ts";
import { TOOLS } from "./tools.ts";
import { parseResourceUri, resourceUri } from "./uris.ts";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type Identify = (extra: Extra) => Principal;

export type BuiltServer = { mcp: McpServer; subscriptions: Set<string> };

/**
 * tools/call as the protocol layer first sees it: any `arguments`. The SDK's own check of the real
 * schema then refuses a non-object with -32602 (Invalid params); with the real schema here the
 * generic parse would fail first and answer -32603 (Internal error).
 */
const AnyArgumentsCall = CallToolRequestSchema.extend({ params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }) });

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] });

/** Values starting with what was typed, for completion lists (at most 100, as the protocol allows). */
const startingWith = (values: string[], typed: string) => values.filter((v) => v.startsWith(typed)).slice(0, 100);

export function buildMcpServer(svc: Services, identify: Identify, options: { extraTools?: ToolDef[] } = {}): BuiltServer {
  const mcp = new McpServer(
    { name: "teamhub", title: "Team Hub", version: svc.info.version },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: {}, completions: {}, logging: {} },
      instructions:
        "Team Hub coordinates Claude Code sessions through versioned artifacts and self-resolving contracts. Read the orchestrator-guide or worker-guide prompt first.",
    },
  );
  const tools = [...TOOLS, ...(options.extraTools ?? [])];
  const byName = new Map(tools.map((t) => [t.name, t]));

  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => {
      const outputSchema = outputJsonSchema(t);
      return {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: inputJsonSchema(t) as never,
        ...(outputSchema ? { outputSchema: outputSchema as never } : {}),
        annotations: { title: t.title, ...t.annotations },
      };
    }),
  }));
  mcp.server.setRequestHandler(AnyArgumentsCall, async (loose, extra) => {
    // The SDK has refused anything the real schema refuses; its parse also drops keys such as __proto__.
    const req = CallToolRequestSchema.parse(loose);
    const def = byName.get(req.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}. tools/list shows the ${tools.length} tools of this server.`);
    const actor = identify(extra);
    const result = await callTool(def, svc, actor, req.params.arguments, extra.signal);
    await mcp.server
      .sendLoggingMessage(
        {
          level: result.isError ? "warning" : "info",
          logger: "teamhub",
          data: `${def.name} by ${actor.name}: ${result.isError ? result.content[0].text : "ok"}`,
        },
        extra.sessionId,
      )
      .catch(() => {});
    return result;
  });

  registerResources(mcp, svc, identify);
  registerPrompts(mcp, svc);

  const subscriptions = new Set<string>();
  mcp.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    const parsed = parseResourceUri(req.params.uri);
    if (!parsed || parsed.kind === "snapshot" || parsed.kind === "pipeline") {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot subscribe to ${req.params.uri}: subscribe to teamhub://teams/{team}/artifacts/{id} or teamhub://teams/{team}/contracts/{id}`,
      );
    }
    subscriptions.add(req.params.uri);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscriptions.delete(req.params.uri);
    return {};
  });
  return { mcp, subscriptions };
}

function registerResources(mcp: McpServer, svc: Services, identify: Identify) {
  const teams = async () => (await svc.teams.list(svc.operator, {})).map((t) => t.id);
  const completeTeam = { team: async (typed: string) => startingWith(await teams(), typed) };
  const idsOf = async (team: string | undefined, list: (team: string) => Promise<string[]>) => list(team ?? "default");
  const artifactIds = (team: string) =>
    svc.artifacts.list(svc.operator, { team, limit: 500, archived: false, stale: false }).then((r) => r.items.map((a) => a.id));
  const contractIds = (team: string) => svc.contracts.list(svc.operator, { team, limit: 500 }).then((r) => r.items.map((c) => c.id));
  const pipelineIds = (team: string) => svc.pipelines.list(svc.operator, { team }).then((r) => r.map((p) => p.id));
  const snapshotIds = (team: string) => svc.snapshots.list(svc.operator, { team, limit: 500 }).then((r) => r.items.map((s) => s.id));
  const complete = (list: (team: string) => Promise<string[]>) => ({
    ...completeTeam,
    id: async (typed: string, ctx?: { arguments?: Record<string, string> }) => startingWith(await idsOf(ctx?.arguments?.team, list), typed),
  });
  const listing = (kind: "artifact" | "contract", list: (team: string) => Promise<string[]>) => async () => {
    const resources = [];
    for (const team of await teams())
      for (const id of await list(team)) resources.push({ uri: resourceUri(kind, team, id), name: `${team}/${id}`, mimeType: "application/json" });
    return { resources };
  };

  mcp.registerResource(
    "artifact",
    new ResourceTemplate("teamhub://teams/{team}/artifacts/{id}", { list: listing("artifact", artifactIds), complete: complete(artifactIds) }),
    {
      title: "Artifact (current version)",
      description: "An artifact's current version with its data; reading records your read. Subscribe to hear of new versions.",
      mimeType: "application/json",
    },
    async (uri, v, extra) => json(uri.href, await svc.artifacts.get(identify(extra), { team: String(v.team), id: String(v.id) })),
  );
  mcp.registerResource(
    "artifact-version",
    new ResourceTemplate("teamhub://teams/{team}/artifacts/{id}/versions/{version}", {
      list: undefined,
      complete: { ...complete(artifactIds), version: async (typed, ctx) => startingWith(await versionsOf(svc, ctx?.arguments), typed) },
    }),
    { title: "Artifact version", description: "One immutable version of an artifact; reading records your read.", mimeType: "application/json" },
    async (uri, v, extra) => json(uri.href, await svc.artifacts.get(identify(extra), { team: String(v.team), id: String(v.id), version: Number(v.version) })),
  );
  mcp.registerResource(
    "contract",
    new ResourceTemplate("teamhub://teams/{team}/contracts/{id}", { list: listing("contract", contractIds), complete: complete(contractIds) }),
    { title: "Contract", description: "A contract's full state. Subscribe to hear of its status changes.", mimeType: "application/json" },
    async (uri, v) => json(uri.href, await svc.contracts.get(svc.operator, { team: String(v.team), id: String(v.id) })),
  );
  mcp.registerResource(
    "pipeline",
    new ResourceTemplate("teamhub://teams/{team}/pipelines/{id}", { list: undefined, complete: complete(pipelineIds) }),
    { title: "Pipeline", description: "A pipeline's rules and latest executions.", mimeType: "application/json" },
    async (uri, v) => json(uri.href, await svc.pipelines.get(svc.operator, { team: String(v.team), id: String(v.id), limit: 50 })),
  );
  mcp.registerResource(
    "snapshot",
    new ResourceTemplate("teamhub://teams/{team}/snapshots/{id}", { list: undefined, complete: complete(snapshotIds) }),
    { title: "Snapshot", description: "A snapshot's metadata and captured coordination state.", mimeType: "application/json" },
    async (uri, v) => json(uri.href, await svc.snapshots.get(svc.operator, { team: String(v.team), id: String(v.id) })),
  );
}

async function versionsOf(svc: Services, args: Record<string, string> | undefined): Promise<string[]> {
  if (!args?.id) return [];
  try {
    const h = await svc.artifacts.history(svc.operator, { team: args.team ?? "default", id: args.id, includeData: false });
    return h.versions.map((v) => String(v.version));
  } catch {
    return [];
  }
}

function registerPrompts(mcp: McpServer, svc: Services) {
  const team = completable(z.string().optional().describe("Team (namespace); omit for 'default'."), async (typed) =>
    startingWith(
      (await svc.teams.list(svc.operator, {})).map((t) => t.id),
      typed ?? "",
    ),
  );
  mcp.registerPrompt(
    "orchestrator-guide",
    {
      title: "Orchestrator guide",
      description: "How to coordinate a team through Team Hub: contracts, artifacts, pipelines, phase gates, snapshots.",
      argsSchema: { team },
    },
    (args) => ({ messages: [{ role: "user", content: { type: "text", text: orchestratorGuide({ team: args.team }) } }] }),
  );
  mcp.registerPrompt(
    "worker-guide",
    {
      title: "Worker guide",
      description: "How a team member picks up contracts, publishes artifacts and reports status through Team Hub.",
      argsSchema: { team, member: z.string().optional().describe("Your member name."), role: z.string().optional().describe("Your role.") },
    },
    (args) => ({ messages: [{ role: "user", content: { type: "text", text: workerGuide({ team: args.team, member: args.member, role: args.role }) } }] }),
  );
}
