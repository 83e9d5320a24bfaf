/**
 * The catalog and the routes agree: every handler under app/api serves exactly one catalog
 * endpoint with that method and path, and every endpoint has a handler.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api } from "./index.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../app/api");

function routes(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "route.ts") {
        const url = "/" + path.relative(ROOT, dir).replace(/\[([^\]]+)\]/g, ":$1");
        for (const m of fs.readFileSync(p, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = handle\(api\.(\w+)\.(\w+),/g)) {
          found.push(`${m[1]} ${url} = ${m[2]}.${m[3]}`);
        }
      }
    }
  };
  walk(ROOT);
  return found.sort();
}

describe("the endpoint catalog", () => {
  it("has one entry per route handler, with the handler's method and path", () => {
    const catalog = Object.entries(api)
      .flatMap(([group, eps]) => Object.entries(eps).map(([name, e]) => `${e.method} ${e.path} = ${group}.${name}`))
      .sort();
    expect(routes()).toEqual(catalog);
  });

  it("every route file exports only handlers built from the catalog", () => {
    const handlers = routes().length;
    let exported = 0;
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name === "route.ts") exported += [...fs.readFileSync(p, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE) =/g)].length;
      }
    };
    walk(ROOT);
    expect(exported).toBe(handlers);
  });
});
