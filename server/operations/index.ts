/**
 * Every operation's definition (./define.ts), by group of the catalog. The doors are built from them: the HTTP routes
 * (server/http/routes.ts), the MCP tools (server/mcp/tools.ts) and the services table (server/services.ts), as are
 * the test kits (server/testing/operations.ts).
 */
import type { Endpoint } from "../../lib/api/endpoint.ts";
import type { ServiceContext } from "./context.ts";
import type { Area, Definition, Group, Op } from "./define.ts";
import { auth, hubs, leads } from "./access.ts";
import { artifacts } from "./artifacts.ts";
import { budgets, limits } from "./budgets.ts";
import { chat } from "./chat.ts";
import { continuity } from "./continuity.ts";
import { contracts } from "./contracts.ts";
import { knowledge } from "./knowledge.ts";
import { lineage } from "./lineage.ts";
import { pipelines } from "./pipelines.ts";
import { runtimes, sessions } from "./sessions.ts";
import { snapshots } from "./snapshots.ts";
import { events, gate, graph, health, overview, roster, teams } from "./teams.ts";
import { webhooks } from "./webhooks.ts";
import { worktrees } from "./worktrees.ts";

/** In the order MCP clients list the tools: an agent's work first, then what only people at the dashboard or CLI use. */
export const DEFINITIONS = {
  artifacts,
  contracts,
  lineage,
  pipelines,
  snapshots,
  gate,
  roster,
  events,
  sessions,
  runtimes,
  worktrees,
  chat,
  continuity,
  knowledge,
  budgets,
  limits,
  webhooks,
  auth,
  leads,
  hubs,
  teams,
  health,
  overview,
  graph,
} satisfies { [G in Group]: Area<G> };

type Definitions = typeof DEFINITIONS;

/** Every definition, each with its `group.name`. */
export const ALL: Array<Definition & { key: string; group: string; name: string }> = Object.entries(DEFINITIONS).flatMap(([group, defs]) =>
  Object.entries(defs as Record<string, Definition>).map(([name, d]) => ({ ...d, key: `${group}.${name}`, group, name })),
);

const BY_ENDPOINT = new Map<Endpoint, (typeof ALL)[number]>(ALL.map((d) => [d.endpoint, d]));

function known(endpoint: Endpoint) {
  const found = BY_ENDPOINT.get(endpoint);
  if (!found) throw new Error(`${endpoint.method} ${endpoint.path} is not an endpoint of the catalog`);
  return found;
}

/** `group.name` of a catalog endpoint. */
export const operationOf = (endpoint: Endpoint): string => known(endpoint).key;

/** Each operation bound to the hub's context, as the doors call it: `served.contracts.create(actor, input, signal)`. */
export type Served = { [G in keyof Definitions]: { [N in keyof Definitions[G]]: Definitions[G][N] extends Definition<infer E> ? Op<E> : never } };

export function serve(ctx: ServiceContext): Served {
  const group = (defs: Record<string, Definition>) =>
    Object.fromEntries(
      Object.entries(defs).map(([name, d]) => [name, (actor: never, input: never, signal?: AbortSignal) => d.serve(ctx, actor, input, signal)]),
    );
  return Object.fromEntries(Object.entries(DEFINITIONS).map(([g, defs]) => [g, group(defs as Record<string, Definition>)])) as unknown as Served;
}

/** The operation that carries out `endpoint` in a services table. */
export function serviceOf(s: Served, endpoint: Endpoint): Op<Endpoint> {
  const { group, name } = known(endpoint);
  return (s as unknown as Record<string, Record<string, Op<Endpoint>>>)[group][name];
}
