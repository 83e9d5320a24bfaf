/**
 * One definition per operation (docs/architecture.md#layers). Its wire half is the endpoint of lib/api/endpoints,
 * shared with every client: name, method and path, input and output schemas, effect (the MCP read-only and
 * destructive hints) and whether it waits. Its serving half is here: who may call it, the domain call that carries it
 * out, and what an MCP client is told of it, or why agents do not get it as a tool. The HTTP routes, the MCP tools, the
 * services table and the test kits are all derived from the definitions (./index.ts).
 */
import type { z } from "zod";
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import type { Operation } from "../domain/auth/capabilities.ts";
import type { Principal } from "../domain/principal.ts";
import type { ServiceContext } from "./context.ts";

type Catalog = typeof api;
export type Group = keyof Catalog & string;
type EndpointOf<G extends Group, N extends keyof Catalog[G]> = Catalog[G][N] & Endpoint;

/** An operation as every door calls it: the caller, the input its endpoint parsed, and a signal that aborts when the caller goes away. */
export type Op<E> = E extends Endpoint<infer I, infer O> ? (actor: Principal, input: z.output<I>, signal?: AbortSignal) => Promise<z.output<O>> : never;

type Serve<E> =
  E extends Endpoint<infer I, infer O> ? (ctx: ServiceContext, actor: Principal, input: z.output<I>, signal?: AbortSignal) => Promise<z.output<O>> : never;

/**
 * Who may call it. `member`: every principal of the team (the domain still limits what each one sees and spawns). A
 * capability: the rule of server/domain/auth/capabilities.ts its domain call enforces. Cases, when the input decides
 * which applies: `{ "hub: true": "events.hub", otherwise: "member" }` (the last one's key is `otherwise`).
 */
export type May = "member" | Operation | Readonly<Record<string, "member" | Operation>>;

/** The operation as an MCP tool: its name, title and description, and a description for each argument a model fills. */
export type ToolText<E> = {
  name: string;
  title: string;
  description: string;
  describe?: E extends Endpoint<infer I> ? (I extends z.ZodObject ? Partial<Record<keyof I["shape"], string>> : never) : never;
};

export type Definition<E extends Endpoint = Endpoint> = {
  endpoint: E;
  may: May;
  serve: Serve<E>;
  /** The tool agents call it through, or why they do not get one (docs/mcp.md#what-a-client-gets). */
  mcp: ToolText<E> | { none: string };
};

export type Area<G extends Group> = { [N in keyof Catalog[G]]: Definition<EndpointOf<G, N>> };

/** The definitions of one group of the catalog: every endpoint of `api[group]` has one, under its own name. */
export function area<G extends Group>(group: G, defs: { [N in keyof Catalog[G]]: Omit<Definition<EndpointOf<G, N>>, "endpoint"> }): Area<G> {
  const endpoints = api[group] as Record<string, Endpoint>;
  return Object.fromEntries(Object.entries(defs as Record<string, object>).map(([name, d]) => [name, { endpoint: endpoints[name], ...d }])) as Area<G>;
}
