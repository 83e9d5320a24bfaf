/**
 * `npm pack` and `npm publish` run this first (the `prepack` script): what the package carries besides
 * package.json's `files` as they are (docs/distribution.md).
 * - dist/: the server, the CLI and the client library compiled to ESM JavaScript with declarations
 *   (tsconfig.build.json; `.ts` import specifiers rewritten to `.js`);
 * - .next/: the dashboard's production build, current with the sources (server/cli/build-stamp.ts).
 * Then it checks that nothing compiled imports a package outside `dependencies`: the installed package has no
 * dev dependencies (tsx, TypeScript, Prisma's CLI, …).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { z } from "zod";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";

const DIST = path.join(PROJECT_ROOT, "dist");
/** Files tsc does not emit that the compiled server loads by path. */
const COPIED = ["server/db/checkpoint-worker.mjs"];
/** Prisma's generated client: only its types are used (server/db/rows.ts), so none of it is needed at run time. */
const TYPES_ONLY = ["server/generated"];

function run(what: string, args: string[]) {
  console.log(`prepack: ${what}`);
  const r = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
}

/** Every bare import specifier in the compiled JavaScript (static, dynamic and re-exports). */
function importsOf(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(m?js)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm,
    )) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".") && !spec.startsWith("/")) found.set(spec, path.relative(PROJECT_ROOT, file));
    }
  }
  return found;
}

const packageName = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

function checkRuntimeImports() {
  const manifest = z
    .object({ dependencies: z.record(z.string(), z.string()) })
    .parse(JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")));
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const wrong = [...importsOf(DIST)].filter(([spec]) => !builtins.has(spec) && !(packageName(spec) in manifest.dependencies));
  if (wrong.length) throw new Error(`compiled code imports packages that are not dependencies:\n${wrong.map(([s, f]) => `  ${s} (${f})`).join("\n")}`);
}

function prepack() {
  run("the Prisma clients' types (tsc needs them; generated when stale)", ["scripts/prisma-generate.mjs"]);
  fs.rmSync(DIST, { recursive: true, force: true });
  run("compiling the server, the CLI and the client library (tsc -p tsconfig.build.json)", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"]);
  for (const rel of COPIED) fs.copyFileSync(path.join(PROJECT_ROOT, rel), path.join(DIST, rel));
  for (const rel of TYPES_ONLY) fs.rmSync(path.join(DIST, rel), { recursive: true, force: true });
  checkRuntimeImports();
  console.log(`prepack: ${ensureBuild(PROJECT_ROOT, (m) => console.log(`prepack: ${m}`)) ? "dashboard built" : "dashboard build is current"}`);
}

prepack();
