/**
 * The /api routes (./api-router.ts): one per operation's definition (server/operations/), at its endpoint's method and
 * path, served by its operation in the services table with the caller, the parsed input and a signal that aborts when
 * the caller goes away.
 */
import { ALL, serviceOf } from "../operations/index.ts";
import { route, type Route } from "./handle.ts";

export const ROUTES: Route[] = ALL.map(({ endpoint }) => route(endpoint, (s, actor, input, signal) => serviceOf(s, endpoint)(actor, input, signal)));
