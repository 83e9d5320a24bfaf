/**
 * Operations called the way the doors call them, for domain tests: the raw input parsed by the endpoint's own schema
 * (bad input is the same invalid_input, as a rejected promise), then the service the HTTP route and the MCP tool run.
 * The test kits are built on it, so they name operations by endpoint and list no domain functions of their own.
 */
import type { Endpoint, OutputOf } from "../../lib/api/endpoint.ts";
import type { DomainDeps } from "../domain/deps.ts";
import type { Principal } from "../domain/principal.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { serviceOf } from "../operations/index.ts";
import { createServices, type HubInfo } from "../services.ts";
import { CODEX_MODEL_PRICES, runtimesFrom } from "../runtimes.ts";

/** The runtimes of a hub whose operator configured nothing for them: Codex at its list prices, defaulting to its first model. */
export const TEST_RUNTIMES = runtimesFrom({ bin: undefined, toml: "", env: {}, models: CODEX_MODEL_PRICES }).specs;

/** A hub with no token required, no sandbox, no admission limit and the default runtimes, its data in `dir`; `info` changes what a test needs. */
export function testHubInfo(dir: string, info: Partial<HubInfo> = {}): HubInfo {
  return {
    version: "test",
    startedAt: new Date(),
    requireToken: false,
    dataDir: dir,
    sessionWorkDir: dir,
    sandbox: "none",
    maxLiveSessions: 0,
    runtimes: TEST_RUNTIMES,
    ...info,
  };
}

export type Call = <E extends Endpoint>(endpoint: E, actor: Principal, input?: Record<string, unknown>, signal?: AbortSignal) => Promise<OutputOf<E>>;

export function operations(hub: DomainDeps & { dir: string }, info: Partial<HubInfo> = {}): Call {
  const services = createServices(hub, testHubInfo(hub.dir, info));
  return (endpoint, actor, input = {}, signal) => serviceOf(services, endpoint)(actor, parseOrThrow(endpoint.input, input), signal) as never;
}
