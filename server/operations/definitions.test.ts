/**
 * Every operation is defined once (./define.ts) and reaches every door its definition declares: the services table,
 * the HTTP route at its endpoint, its MCP tool, and the test kits. Each door is called with a services table that
 * records which operation it was asked for.
 */
import { describe, expect, it } from "vitest";
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import { OPERATOR } from "../domain/principal.ts";
import { ROUTES } from "../http/routes.ts";
import { TOOLS } from "../mcp/tools.ts";
import type { Services } from "../services.ts";
import { ALL, serviceOf } from "./index.ts";

/** A services table whose every operation answers with its own `group.name`. */
const recorder = new Proxy({} as Services, {
  get: (_, group: string) => new Proxy({}, { get: (__, name: string) => async () => `${group}.${name}` }),
});
const signal = new AbortController().signal;
const catalog = Object.entries(api).flatMap(([group, eps]) =>
  Object.entries(eps as Record<string, Endpoint>).map(([name, e]) => ({ key: `${group}.${name}`, e })),
);

describe("the operations' definitions", () => {
  it("define every endpoint of the catalog once, under its own name", () => {
    expect(ALL.map((d) => d.key).sort()).toEqual(catalog.map((c) => c.key).sort());
    expect(ALL.filter((d) => catalog.find((c) => c.key === d.key)!.e !== d.endpoint).map((d) => d.key)).toEqual([]);
  });

  it.each(ALL.map((d) => [d.key, d] as const))("%s reaches its service, its route and the tool it declares", async (key, d) => {
    expect(await serviceOf(recorder, d.endpoint)(OPERATOR, {} as never, signal)).toBe(key);
    const routes = ROUTES.filter((r) => r.endpoint === d.endpoint);
    expect(routes).toHaveLength(1);
    expect(await routes[0].call(recorder, OPERATOR, {} as never, signal)).toBe(key);
    const tools = TOOLS.filter((t) => t.endpoint === d.endpoint);
    expect(tools.map((t) => t.name)).toEqual("name" in d.mcp ? [d.mcp.name] : []);
    for (const t of tools) expect(await t.run(recorder, OPERATOR, {} as never, signal)).toBe(key);
  });
});
