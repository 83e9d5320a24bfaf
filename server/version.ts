/**
 * Where Team Hub's own files are, whichever way it runs: from a clone (TypeScript sources through tsx) or from the
 * installed package (compiled JavaScript in dist/, the prebuilt dashboard in .next/). Both find the package root by
 * its package.json, since a compiled module sits one directory deeper (dist/server/…) than its source (server/…).
 */
import fs from "node:fs";
import { z } from "zod";
import path from "node:path";
import { fileURLToPath } from "node:url";

const Manifest = z.object({ name: z.string(), version: z.string() });

function nameOf(file: string): string | undefined {
  try {
    return Manifest.safeParse(JSON.parse(fs.readFileSync(file, "utf8"))).data?.name;
  } catch {
    return undefined;
  }
}

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && nameOf(file) === "teamhub") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of teamhub above ${from}`);
  }
}

export const PROJECT_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Whether this is a clone with the sources (the dashboard is built from them when they change), or the installed
 * package, which carries its dashboard built and no sources to build it from (docs/distribution.md).
 */
export const FROM_SOURCES = fs.existsSync(path.join(PROJECT_ROOT, "app")) && fs.existsSync(path.join(PROJECT_ROOT, "server", "version.ts"));

export function hubVersion(): string {
  return Manifest.parse(JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"))).version;
}
