/**
 * The catalog (lib/api/endpoints) and the hub's routes agree: every catalog endpoint has exactly one route (./routes.ts), and
 * no two endpoints share a method and path.
 */
import { describe, expect, it } from "vitest";
import { api } from "../../lib/api/endpoints/index.ts";
import { ROUTES } from "./routes.ts";

const catalog = Object.entries(api).flatMap(([group, eps]) => Object.entries(eps).map(([name, e]) => ({ key: `${group}.${name}`, endpoint: e })));
const keyOf = new Map(catalog.map((c) => [c.endpoint, c.key]));

describe("the endpoint catalog", () => {
  it("has exactly one route per endpoint", () => {
    expect(ROUTES.map((r) => keyOf.get(r.endpoint) ?? `not in the catalog: ${r.endpoint.method} ${r.endpoint.path}`).sort()).toEqual(
      catalog.map((c) => c.key).sort(),
    );
  });

  it("gives every endpoint a method and path of its own", () => {
    const seen = catalog.map((c) => `${c.endpoint.method} ${c.endpoint.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
