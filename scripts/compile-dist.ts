/**
 * dist/: the server, the CLI and the client library compiled to ESM JavaScript with declarations
 * (tsconfig.build.json; `.ts` import specifiers rewritten to `.js`), stamped with the sources they came from.
 * `npm pack` ships it (scripts/prepack.ts); the e2e tests run their hubs and CLI commands from it, as an installed
 * package does, because tsx costs each process about half a second of CPU (docs/testing.md#processes).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sourcesHash, withBuildLock } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";

export const DIST = path.join(PROJECT_ROOT, "dist");
/** The compiled `teamhub` command. */
export const COMPILED_CLI = path.join(DIST, "server", "cli", "index.js");
/** What the output depends on: the sources, the compiler options and the compiler (package-lock.json). */
const INPUTS = ["server", "lib", "tsconfig.json", "tsconfig.build.json", "package-lock.json"];
const STAMP = path.join(DIST, "teamhub-sources.sha256");
/** Files tsc does not emit that the compiled server loads by path. */
const COPIED = ["server/db/checkpoint-worker.mjs"];
/** Prisma's generated client: only its types are used (server/db/rows.ts), so none of it is needed at run time. */
const TYPES_ONLY = ["server/generated"];

function run(what: string, args: string[], log: (m: string) => void) {
  log(what);
  const r = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
}

function compileDist(log: (m: string) => void = () => {}) {
  withBuildLock(
    PROJECT_ROOT,
    () => {
      const hash = sourcesHash(PROJECT_ROOT, INPUTS);
      run("the Prisma clients' types (tsc needs them; generated when stale)", ["scripts/prisma-generate.mjs"], log);
      fs.rmSync(DIST, { recursive: true, force: true });
      run(
        "compiling the server, the CLI and the client library (tsc -p tsconfig.build.json)",
        ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"],
        log,
      );
      for (const rel of COPIED) fs.copyFileSync(path.join(PROJECT_ROOT, rel), path.join(DIST, rel));
      for (const rel of TYPES_ONLY) fs.rmSync(path.join(DIST, rel), { recursive: true, force: true });
      fs.writeFileSync(STAMP, hash);
    },
    ".teamhub-compile.lock",
  );
}

const isCurrent = () => fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === sourcesHash(PROJECT_ROOT, INPUTS);

/** Compiles dist/ unless it matches the sources; returns whether it compiled. */
export function ensureCompiled(log: (m: string) => void = () => {}): boolean {
  if (isCurrent()) return false;
  compileDist(log);
  return true;
}
