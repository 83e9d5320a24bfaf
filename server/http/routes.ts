/**
 * The /api routes (./api-router.ts): one per endpoint of the catalog (lib/api/endpoints). An endpoint is served by the
 * service of the same group and name (`api.sessions.send` by `s.sessions.send`), called with the caller, the parsed
 * input and a signal that aborts when the caller goes away; the type below holds every such service to its endpoint's
 * input and output schemas. The few endpoints whose service is named or called otherwise are routed by hand.
 */
import type { z } from "zod";
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import type { Principal } from "../domain/principal.ts";
import type { Services } from "../services.ts";
import { route, type Route } from "./handle.ts";

type Catalog = typeof api;

const BY_HAND = {
  "continuity.briefingPost": route(api.continuity.briefingPost, (s, actor, input) => s.continuity.briefing(actor, input)),
  "graph.get": route(api.graph.get, (s, actor, input) => s.graph(actor, input)),
  "health.get": route(api.health.get, (s) => s.health()),
  "overview.get": route(api.overview.get, (s, actor, input) => s.overview(actor, input)),
};

type Op<E> = E extends Endpoint<infer I, infer O> ? (actor: Principal, input: z.output<I>, signal: AbortSignal) => Promise<z.output<O>> : never;
/** The services as the catalog needs them: every endpoint not routed by hand has a service of its group and name. */
type Mirror = {
  [G in keyof Catalog & string]: { [N in keyof Catalog[G] & string as `${G}.${N}` extends keyof typeof BY_HAND ? never : N]: Op<Catalog[G][N]> };
};
// Fails to compile when a service drifts from its endpoint (its input, its answer, or a third parameter that is not the signal).
const mirrored = (s: Services): Mirror => s;

export const ROUTES: Route[] = Object.entries(api).flatMap(([group, endpoints]) =>
  Object.entries(endpoints).map(([name, endpoint]: [string, Endpoint]) => {
    const key = `${group}.${name}`;
    if (key in BY_HAND) return BY_HAND[key as keyof typeof BY_HAND];
    return route(endpoint, (s, actor, input, signal) => {
      const op = (mirrored(s) as unknown as Record<string, Record<string, Op<Endpoint>>>)[group][name];
      return op(actor, input, signal);
    });
  }),
);
