/**
 * The /api routes (./api-router.ts): one per endpoint of the catalog (lib/api/endpoints), each served by the service of
 * the same group and name (server/operations.ts: `api.sessions.send` by `s.sessions.send`) with the caller, the parsed
 * input and a signal that aborts when the caller goes away. The few endpoints served otherwise are routed by hand.
 */
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import { operationOf, serviceOf, type OtherwiseServed } from "../operations.ts";
import { route, type Route } from "./handle.ts";

const BY_HAND: Record<OtherwiseServed, Route> = {
  "continuity.briefingPost": route(api.continuity.briefingPost, (s, actor, input) => s.continuity.briefing(actor, input)),
  "graph.get": route(api.graph.get, (s, actor, input) => s.graph(actor, input)),
  "health.get": route(api.health.get, (s) => s.health()),
  "overview.get": route(api.overview.get, (s, actor, input) => s.overview(actor, input)),
};

export const ROUTES: Route[] = Object.values(api).flatMap((endpoints) =>
  Object.values(endpoints).map((endpoint: Endpoint) => {
    const key = operationOf(endpoint);
    if (key in BY_HAND) return BY_HAND[key as OtherwiseServed];
    return route(endpoint, (s, actor, input, signal) => serviceOf(s, endpoint)(actor, input, signal));
  }),
);
