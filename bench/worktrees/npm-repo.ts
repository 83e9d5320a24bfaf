/**
 * A repository that `npm ci --offline` makes runnable: PACKAGES tiny packages as tarballs committed in `vendor/`,
 * depended on as `file:vendor/…`, with the lock file npm ci needs; a gitignored `.env` that `.worktreeinclude` lists;
 * `teamhub.json` naming the setup. Making the lock file takes npm half a minute on two busy cores, so it is kept in
 * the OS temp dir under a hash of everything it is made from (the only thing the bench leaves behind, 60 kB).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { BASE_VARIABLES } from "../../server/supervisor/launch.ts";
import { git } from "../lib/git-repo.ts";

export const PACKAGES = 200;
export const SETUP = "npm ci --offline --no-audit --no-fund";
/** The gitignored files `.worktreeinclude` lists, with their contents. */
export const INCLUDED: Record<string, string> = { ".env": "VALUE=42\n" };

/** One ustar entry (a regular file), as npm pack writes them: under `package/`, fixed owner and time. */
function tarFile(name: string, body: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, "ascii");
  const octal = (offset: number, length: number, n: number) => field(offset, length, `${n.toString(8).padStart(length - 1, "0")}\0`);
  field(0, 100, name);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, body.length);
  octal(136, 12, 499162500); // 1985-10-26, npm pack's fixed time
  field(148, 8, " ".repeat(8));
  field(156, 1, "0");
  field(257, 8, "ustar\x0000");
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  const padding = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, padding]);
}

/** A package tarball: `package/package.json` and `package/index.js`, gzipped. */
function packageTarball(name: string, i: number): Buffer {
  const entries = [
    tarFile("package/package.json", Buffer.from(JSON.stringify({ name, version: "1.0.0", main: "index.js", license: "MIT" }))),
    tarFile("package/index.js", Buffer.from(`module.exports = ${i};\n`)),
    Buffer.alloc(1024),
  ];
  return zlib.gzipSync(Buffer.concat(entries), { level: 9 });
}

/** The environment a work tree's setup gets (worktree-commands.ts): the base variables, HOME as given, no TMPDIR. */
export function setupEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, HOME: home };
}

/** The lock file for `files` (package.json and vendor/), made by npm offline once and then taken from the cache. */
function lockFile(files: Map<string, Buffer>): Buffer {
  const npmVersion = execFileSync("npm", ["--version"], { encoding: "utf8", env: setupEnv(os.tmpdir()) as NodeJS.ProcessEnv }).trim();
  const hash = createHash("sha256").update(`npm ${npmVersion}\n`);
  for (const [name, body] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${name}\n`).update(body);
  const cached = path.join(os.tmpdir(), `teamhub-bench-lock-${hash.digest("hex").slice(0, 16)}.json`);
  if (fs.existsSync(cached)) return fs.readFileSync(cached);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-bench-lock-"));
  try {
    for (const [name, body] of files) {
      fs.mkdirSync(path.dirname(path.join(scratch, name)), { recursive: true });
      fs.writeFileSync(path.join(scratch, name), body);
    }
    const home = path.join(scratch, ".home");
    fs.mkdirSync(home);
    execFileSync("npm", ["install", "--package-lock-only", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: scratch,
      env: setupEnv(home) as NodeJS.ProcessEnv,
      stdio: "ignore",
    });
    const lock = fs.readFileSync(path.join(scratch, "package-lock.json"));
    fs.writeFileSync(`${cached}.${process.pid}`, lock);
    fs.renameSync(`${cached}.${process.pid}`, cached);
    return lock;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Plants the repository at `repo` (branch `main`, one commit) and the included files beside it, uncommitted. Returns the commit. */
export function plantNpmRepo(repo: string): string {
  const files = new Map<string, Buffer>();
  const dependencies: Record<string, string> = {};
  for (let i = 1; i <= PACKAGES; i++) {
    const name = `pkg-${i}`;
    const tarball = `vendor/${name}-1.0.0.tgz`;
    files.set(tarball, packageTarball(name, i));
    dependencies[name] = `file:${tarball}`;
  }
  files.set("package.json", Buffer.from(JSON.stringify({ name: "runnable-bench", version: "1.0.0", private: true, dependencies }, null, 2) + "\n"));
  files.set("package-lock.json", lockFile(files));
  files.set(".gitignore", Buffer.from(`node_modules/\n${Object.keys(INCLUDED).join("\n")}\n`));
  files.set(".worktreeinclude", Buffer.from(`${Object.keys(INCLUDED).join("\n")}\n`));
  files.set("teamhub.json", Buffer.from(JSON.stringify({ worktree: { setup: SETUP, setupTimeoutMs: 600_000 } }, null, 2) + "\n"));
  for (const [name, body] of files) {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    fs.writeFileSync(path.join(repo, name), body);
  }
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "a runnable project");
  for (const [name, body] of Object.entries(INCLUDED)) fs.writeFileSync(path.join(repo, name), body);
  return git(repo, "rev-parse", "HEAD").trim();
}

/** A work tree is runnable when every package resolves from its top and the included files are there. */
export function checkRunnable(tree: string): string | null {
  for (const [name, body] of Object.entries(INCLUDED)) {
    const p = path.join(tree, name);
    if (!fs.existsSync(p) || fs.readFileSync(p, "utf8") !== body) return `${name} was not copied into ${tree}`;
  }
  const installed = fs.readdirSync(path.join(tree, "node_modules")).filter((n) => n.startsWith("pkg-")).length;
  if (installed !== PACKAGES) return `${installed} of ${PACKAGES} packages installed in ${tree}`;
  const out = execFileSync(process.execPath, ["-e", `let s = 0; for (let i = 1; i <= ${PACKAGES}; i++) s += require("pkg-" + i); console.log(s);`], {
    cwd: tree,
    encoding: "utf8",
  });
  return Number(out) === (PACKAGES * (PACKAGES + 1)) / 2 ? null : `the packages answered ${out.trim()} in ${tree}`;
}
