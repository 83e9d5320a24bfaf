/**
 * The dashboard bundle is built by `next build`; a stamp of the sources it was built from tells
 * `teamhub start` (and the test setup) when a rebuild is due, so a stale build is never served.
 * The compiled server in dist/ is stamped the same way (scripts/compile-dist.ts).
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const DASHBOARD_INPUTS = ["app", "components", "lib", "server", "next.config.ts", "tsconfig.json", "package-lock.json"];
const SKIP = /(^|\/)(generated|testing)(\/|$)|\.test\.tsx?$/;
const STAMP = path.join(".next", "teamhub-sources.sha256");

function files(root: string, rel: string): string[] {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [rel];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => (SKIP.test(path.join(rel, name)) ? [] : files(root, path.join(rel, name))));
}

export function sourcesHash(root: string, inputs = DASHBOARD_INPUTS): string {
  const h = createHash("sha256");
  for (const rel of inputs.flatMap((i) => files(root, i)))
    h.update(rel)
      .update("\0")
      .update(fs.readFileSync(path.join(root, rel)))
      .update("\0");
  return h.digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  return fs.existsSync(path.join(root, ".next", "BUILD_ID")) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === sourcesHash(root);
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
export function withBuildLock<T>(root: string, fn: () => T, name = ".teamhub-build.lock"): T {
  const lock = path.join(root, name);
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

/** Runs `next build` unless the existing build matches the sources; returns whether it built. */
export function ensureBuild(root: string, log: (m: string) => void = () => {}): boolean {
  if (buildIsCurrent(root)) return false;
  return withBuildLock(root, () => {
    if (buildIsCurrent(root)) return false;
    log("building the dashboard (first start, or its sources changed)…");
    const hash = sourcesHash(root);
    // The build type-checks the server, whose row types come from the Prisma clients: generated here when missing
    // or stale, since installing has no step that does it (an install script would be one more for npm to allow).
    const generated = spawnSync(process.execPath, [path.join(root, "scripts/prisma-generate.mjs")], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
    if (generated.status !== 0) throw new Error(`prisma generate failed:\n${generated.stdout}\n${generated.stderr}`);
    const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`next build failed:\n${r.stdout}\n${r.stderr}`);
    fs.writeFileSync(path.join(root, STAMP), hash);
    return true;
  });
}
