/**
 * dist/: the server, the CLI and the client library compiled to ESM JavaScript with declarations
 * (tsconfig.build.json; `.ts` import specifiers rewritten to `.js`), stamped with the sources they came from.
 * `npm pack` ships it (scripts/prepack.ts); the e2e tests run their hubs and CLI commands from it, as an installed
 * package does, because tsx costs each process about half a second of CPU (docs/testing.md#processes).
 */
import fs from "node:fs";
import path from "node:path";
import { ensureStamped, runNode } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";

export const DIST = path.join(PROJECT_ROOT, "dist");
/** The compiled `teamhub` command. */
export const COMPILED_CLI = path.join(DIST, "server", "cli", "index.js");
/** Files tsc does not emit that the compiled server loads by path. */
const COPIED = ["server/db/checkpoint-worker.mjs"];
/** Prisma's generated client: only its types are used (server/db/rows.ts), so none of it is needed at run time. */
const TYPES_ONLY = ["server/generated"];

/** Compiles dist/ unless it matches the sources; returns whether it compiled. */
export function ensureCompiled(log: (m: string) => void = () => {}): boolean {
  return ensureStamped(PROJECT_ROOT, {
    // The sources, the compiler options and the compiler (package-lock.json).
    inputs: ["server", "lib", "tsconfig.json", "tsconfig.build.json", "package-lock.json"],
    stamp: path.join("dist", "teamhub-sources.sha256"),
    output: path.relative(PROJECT_ROOT, COMPILED_CLI),
    lock: ".teamhub-compile.lock",
    build: () => {
      log("the Prisma clients' types (tsc needs them; generated when stale)");
      runNode(PROJECT_ROOT, "prisma generate", ["scripts/prisma-generate.mjs"]);
      fs.rmSync(DIST, { recursive: true, force: true });
      log("compiling the server, the CLI and the client library (tsc -p tsconfig.build.json)");
      runNode(PROJECT_ROOT, "tsc -p tsconfig.build.json", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"]);
      for (const rel of COPIED) fs.copyFileSync(path.join(PROJECT_ROOT, rel), path.join(DIST, rel));
      for (const rel of TYPES_ONLY) fs.rmSync(path.join(DIST, rel), { recursive: true, force: true });
    },
  });
}
