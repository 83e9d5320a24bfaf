/**
 * The catalog's operations and the services that carry them out: endpoint `api.G.N` (lib/api/endpoints) is served by
 * `s.G.N`, called with the caller, the parsed input and a signal. The HTTP routes and the MCP tools both find their
 * service here, and the type `Mirror` holds every such service to its endpoint's input and output schemas.
 */
import type { z } from "zod";
import { api } from "../lib/api/endpoints/index.ts";
import type { Endpoint } from "../lib/api/endpoint.ts";
import type { Principal } from "./domain/principal.ts";
import type { Services } from "./services.ts";

type Catalog = typeof api;

/** Endpoints whose service is named or called otherwise: each door that offers them says how. */
export const OTHERWISE_SERVED = ["continuity.briefingPost", "graph.get", "health.get", "overview.get"] as const;
export type OtherwiseServed = (typeof OTHERWISE_SERVED)[number];

export type Op<E> = E extends Endpoint<infer I, infer O> ? (actor: Principal, input: z.output<I>, signal?: AbortSignal) => Promise<z.output<O>> : never;

/** A group's services as the catalog needs them: every endpoint not served otherwise has a service of its name. */
export type Operations<G extends keyof Catalog & string> = {
  [N in keyof Catalog[G] & string as `${G}.${N}` extends OtherwiseServed ? never : N]: Op<Catalog[G][N]>;
};
type Mirror = { [G in keyof Catalog & string]: Operations<G> };
// Fails to compile when a service drifts from its endpoint (its input, its answer, or a third parameter that is not the signal).
const mirrored = (s: Services): Mirror => s;

/** Each endpoint's `group.name`, and the service of that name unless it is served otherwise: found once, not per call. */
const KEYS = new Map<Endpoint, { key: string; service: [group: string, name: string] | null }>(
  Object.entries(api).flatMap(([group, endpoints]) =>
    Object.entries(endpoints).map(([name, e]): [Endpoint, { key: string; service: [string, string] | null }] => {
      const key = `${group}.${name}`;
      return [e, { key, service: (OTHERWISE_SERVED as readonly string[]).includes(key) ? null : [group, name] }];
    }),
  ),
);

function known(endpoint: Endpoint) {
  const found = KEYS.get(endpoint);
  if (!found) throw new Error(`${endpoint.method} ${endpoint.path} is not an endpoint of the catalog`);
  return found;
}

/** `group.name` of a catalog endpoint. */
export const operationOf = (endpoint: Endpoint): string => known(endpoint).key;

/** The service that carries out `endpoint`; not for one served otherwise. */
export function serviceOf(s: Services, endpoint: Endpoint): Op<Endpoint> {
  const { key, service } = known(endpoint);
  if (!service) throw new Error(`${key} is served otherwise: its door names the service`);
  return (mirrored(s) as unknown as Record<string, Record<string, Op<Endpoint>>>)[service[0]][service[1]];
}
