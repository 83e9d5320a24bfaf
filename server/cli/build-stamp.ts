/**
 * Builds made from the sources carry a stamp of the sources they were built from, which tells `teamhub start`, the
 * test setup and prepack when a rebuild is due, so nothing stale is served or run: the dashboard bundle (`next build`)
 * and the compiled server in dist/ (scripts/compile-dist.ts).
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SKIP = /(^|\/)(generated|testing)(\/|$)|\.test\.tsx?$/;

/** A build and what it depends on, as paths relative to the project root. */
export type StampedBuild = {
  /** Files and directories whose contents the output depends on. */
  inputs: string[];
  /** The stamp file: the hash of the inputs the output was built from. */
  stamp: string;
  /** A file only a finished build leaves. */
  output: string;
  /** The lock file that keeps two builds of this output apart. */
  lock: string;
  build: () => void;
};

function files(root: string, rel: string): string[] {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [rel];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => (SKIP.test(path.join(rel, name)) ? [] : files(root, path.join(rel, name))));
}

function sourcesHash(root: string, inputs: string[]): string {
  const h = createHash("sha256");
  for (const rel of inputs.flatMap((i) => files(root, i)))
    h.update(rel)
      .update("\0")
      .update(fs.readFileSync(path.join(root, rel)))
      .update("\0");
  return h.digest("hex");
}

/** Whether a finished build is there, made from sources whose hash is `hash`. */
function isCurrent(root: string, b: StampedBuild, hash: string): boolean {
  const stamp = path.join(root, b.stamp);
  return fs.existsSync(path.join(root, b.output)) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Two builds into one directory corrupt each other: take a lock (a file holding our pid). */
function withLock<T>(lock: string, fn: () => T): T {
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch {
      const holder = Number(fs.readFileSync(lock, "utf8") || 0);
      if (holder && !alive(holder)) fs.rmSync(lock, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** Runs the build unless its output matches the sources (checked again once the lock is ours); returns whether it built. */
export function ensureStamped(root: string, b: StampedBuild): boolean {
  if (isCurrent(root, b, sourcesHash(root, b.inputs))) return false;
  return withLock(path.join(root, b.lock), () => {
    // Hashed again: the sources may have changed while another build held the lock.
    const hash = sourcesHash(root, b.inputs);
    if (isCurrent(root, b, hash)) return false;
    b.build();
    fs.writeFileSync(path.join(root, b.stamp), hash);
    return true;
  });
}

/** Runs a Node script of the project (the Prisma generator, tsc, next) and throws with its output when it fails. */
export function runNode(root: string, what: string, args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
}

/** Runs `next build` unless the existing build matches the sources; returns whether it built. */
export function ensureBuild(root: string, log: (m: string) => void = () => {}): boolean {
  return ensureStamped(root, {
    inputs: ["app", "components", "lib", "server", "next.config.ts", "tsconfig.json", "package-lock.json"],
    stamp: path.join(".next", "teamhub-sources.sha256"),
    output: path.join(".next", "BUILD_ID"),
    lock: ".teamhub-build.lock",
    build: () => {
      log("building the dashboard (first start, or its sources changed)…");
      // The build type-checks the server, whose row types come from the Prisma clients: generated here when missing
      // or stale, since installing has no step that does it (an install script would be one more for npm to allow).
      runNode(root, "prisma generate", [path.join(root, "scripts/prisma-generate.mjs")]);
      runNode(root, "next build", [path.join(root, "node_modules/next/dist/bin/next"), "build"]);
    },
  });
}
