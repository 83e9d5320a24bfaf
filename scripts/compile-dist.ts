/**
 * dist/: the `teamhub` command (the CLI and the hub it starts) bundled from its TypeScript sources into dist/cli/, and
 * the client library compiled to ESM JavaScript with declarations into dist/lib/ (tsconfig.build.json; `.ts` import
 * specifiers rewritten to `.js`), stamped with the sources they came from.
 * `npm pack` ships it (scripts/prepack.ts); the e2e tests run their hubs and CLI commands from it, as an installed
 * package does, because tsx costs each process about half a second of CPU (docs/testing.md#processes).
 */
import fs from "node:fs";
import path from "node:path";
import { buildSync, type BuildOptions, type Metafile } from "esbuild";
import { ensureStamped, runNode } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";

export const DIST = path.join(PROJECT_ROOT, "dist");
/** The bundled `teamhub` command and its chunks. */
const BUNDLE = path.join(DIST, "cli");
export const COMPILED_CLI = path.join(BUNDLE, "teamhub.js");
/** What esbuild read to make the bundle (its metafile), kept beside it for prepack's check; not in the package. */
const BUNDLE_META = path.join(DIST, "bundle-meta.json");
/**
 * Packages the bundle leaves to Node: a native addon (better-sqlite3), packages that require optional native ones
 * in a try (pg, ws), and Next.js, which loads its own files by path.
 */
const UNBUNDLED = ["better-sqlite3", "pg", "ws", "next"];
/** Files the server loads by path, relative to its own module (`new URL(…, import.meta.url)`), which nothing imports. */
const COPIED = ["server/db/checkpoint-worker.mjs"];

/** Compiles dist/ unless it matches the sources; returns whether it compiled. */
export function ensureCompiled(log: (m: string) => void = () => {}): boolean {
  return ensureStamped(PROJECT_ROOT, {
    // The sources, the compiler options, the compiler and bundler (package-lock.json), and this recipe.
    inputs: ["server", "lib", "tsconfig.json", "tsconfig.build.json", "package-lock.json", "scripts/compile-dist.ts"],
    stamp: path.join("dist", "teamhub-sources.sha256"),
    output: path.relative(PROJECT_ROOT, COMPILED_CLI),
    lock: ".teamhub-compile.lock",
    build: () => {
      fs.rmSync(DIST, { recursive: true, force: true });
      log("compiling the client library (tsc -p tsconfig.build.json)");
      runNode(PROJECT_ROOT, "tsc -p tsconfig.build.json", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"]);
      log("bundling the teamhub command (esbuild)");
      fs.writeFileSync(BUNDLE_META, JSON.stringify(buildSync({ ...bundleOptions(), metafile: true }).metafile));
      for (const rel of COPIED) fs.copyFileSync(path.join(PROJECT_ROOT, rel), path.join(BUNDLE, path.basename(rel)));
    },
  });
}

/**
 * A process loads a few module files where it loaded 600 (zod alone is over a hundred), which cost a hub's start a
 * third of its CPU (docs/distribution.md#the-package). What a command loads only when it runs (the hub, for `start`)
 * stays in its own chunk. The chunks sit beside the entry, and so does each file in COPIED, where the bundled module
 * that loads it by path looks for it. esbuild reads the TypeScript sources itself (it drops the types; `npm run
 * typecheck` checks them), so the server is not compiled twice.
 */
function bundleOptions() {
  return {
    entryPoints: { teamhub: path.join(PROJECT_ROOT, "server", "cli", "index.ts") },
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
  } satisfies BuildOptions;
}

/**
 * The packages our own modules in the bundle import, each with the first module that imports it, from the metafile of
 * the build (esbuild names every import of every input there).
 */
export function bundledImports(): Map<string, string> {
  const metafile = JSON.parse(fs.readFileSync(BUNDLE_META, "utf8")) as Metafile;
  const found = new Map<string, string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (file.includes("node_modules/")) continue;
    for (const i of input.imports) {
      const spec = i.original ?? (i.external ? i.path : undefined);
      if (spec && !spec.startsWith(".") && !spec.startsWith("/") && !found.has(spec)) found.set(spec, file);
    }
  }
  return found;
}
