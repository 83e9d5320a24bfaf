/**
 * dist/: the server, the CLI and the client library compiled to ESM JavaScript with declarations
 * (tsconfig.build.json; `.ts` import specifiers rewritten to `.js`), stamped with the sources they came from; then the
 * `teamhub` command (the CLI and the hub it starts) bundled from that output into dist/cli/.
 * `npm pack` ships it (scripts/prepack.ts); the e2e tests run their hubs and CLI commands from it, as an installed
 * package does, because tsx costs each process about half a second of CPU (docs/testing.md#processes).
 */
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { ensureStamped, runNode } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";

export const DIST = path.join(PROJECT_ROOT, "dist");
/** The bundled `teamhub` command and its chunks. */
const BUNDLE = path.join(DIST, "cli");
export const COMPILED_CLI = path.join(BUNDLE, "teamhub.js");
/**
 * Packages the bundle leaves to Node: a native addon (better-sqlite3), packages that require optional native ones
 * in a try (pg, ws), and Next.js, which loads its own files by path.
 */
const UNBUNDLED = ["better-sqlite3", "pg", "ws", "next"];
/** Files tsc does not emit that the server loads by path, relative to its own module (`new URL(…, import.meta.url)`). */
const COPIED = ["server/db/checkpoint-worker.mjs"];
/** Prisma's generated client: only its types are used (server/db/rows.ts), so none of it is needed at run time. */
const TYPES_ONLY = ["server/generated"];

/** Compiles dist/ unless it matches the sources; returns whether it compiled. */
export function ensureCompiled(log: (m: string) => void = () => {}): boolean {
  return ensureStamped(PROJECT_ROOT, {
    // The sources, the compiler options, the compiler and bundler (package-lock.json), and this recipe.
    inputs: ["server", "lib", "tsconfig.json", "tsconfig.build.json", "package-lock.json", "scripts/compile-dist.ts"],
    stamp: path.join("dist", "teamhub-sources.sha256"),
    output: path.relative(PROJECT_ROOT, COMPILED_CLI),
    lock: ".teamhub-compile.lock",
    build: () => {
      log("the Prisma clients' types (tsc needs them; generated when stale)");
      runNode(PROJECT_ROOT, "prisma generate", ["scripts/prisma-generate.mjs"]);
      fs.rmSync(DIST, { recursive: true, force: true });
      log("compiling the server, the CLI and the client library (tsc -p tsconfig.build.json)");
      runNode(PROJECT_ROOT, "tsc -p tsconfig.build.json", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"]);
      for (const rel of TYPES_ONLY) fs.rmSync(path.join(DIST, rel), { recursive: true, force: true });
      log("bundling the teamhub command (esbuild)");
      bundle();
    },
  });
}

/**
 * A process loads a few module files where it loaded 600 (zod alone is over a hundred), which cost a hub's start a
 * third of its CPU (docs/distribution.md#the-package). What a command loads only when it runs (the hub, for `start`)
 * stays in its own chunk. The chunks sit beside the entry, and so does each file in COPIED, where the bundled module
 * that loads it by path looks for it.
 */
function bundle() {
  buildSync({
    entryPoints: { teamhub: path.join(DIST, "server", "cli", "index.js") },
    outdir: BUNDLE,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: UNBUNDLED,
    // The CommonJS packages bundled (ajv, under the MCP SDK) require Node's built-ins, which an ES module has no `require` for.
    banner: { js: 'import { createRequire as teamhubRequire } from "node:module"; const require = teamhubRequire(import.meta.url);' },
    logLevel: "warning",
  });
  for (const rel of COPIED) fs.copyFileSync(path.join(PROJECT_ROOT, rel), path.join(BUNDLE, path.basename(rel)));
}
