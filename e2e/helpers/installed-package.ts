/**
 * Team Hub as a user installs it (docs/distribution.md): `npm pack` of this checkout (its prepack compiles dist/ and
 * builds the dashboard), then `npm install -g` of the tarball into a prefix of its own, as a user whose HOME is
 * empty. The machine's npm settings (registry, cache, its global npmrc) are kept, so the install reads the same
 * registry as `npm ci` did; only the install scripts the README names are allowed, and any other one fails it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./hub-process.ts";

/** What the README tells a user to allow (`npm install -g teamhub --allow-scripts=…`). */
export const ALLOWED_SCRIPTS = ["better-sqlite3"];

export type InstalledPackage = {
  tarball: string;
  prefix: string;
  /** The package's directory: <prefix>/lib/node_modules/teamhub. */
  dir: string;
  /** The `teamhub` command npm linked into <prefix>/bin. */
  bin: string;
  /** A home of its own, empty before the first command: where ~/.teamhub goes. */
  home: string;
};

function npmSetting(name: string): string {
  const r = spawnSync("npm", ["config", "get", name], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm config get ${name}: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Either npm step takes a minute or two at most, the dashboard's build included; the limit turns a hang into a failure
 * that says so. It ends npm with SIGKILL: npm's own SIGTERM handler waits for the very work that hangs.
 */
const NPM_LIMIT_MS = 10 * 60_000;

/**
 * npm runs its file operations on one thread of libuv's pool. With several, an install on this machine sometimes sat
 * idle forever (twice in about ten CI runs): gdb showed one fs.stat in the pool's queue and all four threads asleep on
 * its condition variable, a wake-up lost by glibc 2.36's pthread_cond_signal (sourceware bug 25847, fixed in later
 * releases). The lost wake-up happens between threads waiting together; a pool of one never has two (docs/testing.md#processes).
 */
const NPM_THREADS = { UV_THREADPOOL_SIZE: "1" };

function npm(args: string[], opts: { cwd: string; env?: Record<string, string> }): string {
  const env = { ...(opts.env ?? process.env), ...NPM_THREADS } as NodeJS.ProcessEnv;
  const r = spawnSync("npm", args, { cwd: opts.cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: NPM_LIMIT_MS, killSignal: "SIGKILL" });
  if (r.status === 0) return r.stdout;
  const why =
    (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT"
      ? `it did not finish in ${NPM_LIMIT_MS / 60_000} minutes; npm's log ends:\n${npmLogTail(env)}`
      : `${r.error?.message ?? r.status ?? r.signal}`;
  throw new Error(`npm ${args.join(" ")} failed: ${why}\n${r.stdout}\n${r.stderr}`);
}

/** The last lines of npm's newest debug log (in the cache's _logs). */
function npmLogTail(env: NodeJS.ProcessEnv): string {
  const logs = path.join(env.npm_config_cache ?? npmSetting("cache"), "_logs");
  const newest = fs.existsSync(logs) ? fs.readdirSync(logs).sort().at(-1) : undefined;
  return newest ? fs.readFileSync(path.join(logs, newest), "utf8").split("\n").slice(-20).join("\n") : "(no log)";
}

/** `npm pack` of this checkout into `dir`; the tarball's path. */
export function pack(dir: string): string {
  const out = npm(["pack", "--json", "--pack-destination", dir], { cwd: ROOT });
  // prepack's own output comes first on stdout; the JSON report is the last thing printed.
  const report = JSON.parse(out.slice(out.lastIndexOf("\n[") + 1)) as Array<{ filename: string }>;
  return path.join(dir, report[0].filename);
}

/** The environment of a user with an empty HOME, on this machine's npm settings, without the runner's hub variables. */
export function userEnv(home: string, prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined && !/^(TEAMHUB_|ANTHROPIC_|CLAUDE|npm_|VITEST|NODE_ENV$|PORT$)/i.test(e[0]),
  );
  return {
    ...Object.fromEntries(kept),
    HOME: home,
    PATH: `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/**
 * better-sqlite3's prebuilt binary, as its install script (prebuild-install) looks for it: the tarball its GitHub
 * release would serve for this Node, platform and architecture, holding build/Release/better_sqlite3.node. This
 * machine cannot download it, so it is made from the binary `npm ci` compiled for this checkout, and the install finds
 * it in the directory prebuild-install reads before downloading (`npm_config_better_sqlite3_local_prebuilds`): the
 * install then runs the install script a user online runs, without compiling the module a second time.
 */
function betterSqlitePrebuilds(dir: string): Record<string, string> {
  const source = path.join(ROOT, "node_modules", "better-sqlite3");
  const { version } = JSON.parse(fs.readFileSync(path.join(source, "package.json"), "utf8")) as { version: string };
  const prebuilds = path.join(dir, "prebuilds");
  fs.mkdirSync(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const r = spawnSync("tar", ["-czf", path.join(prebuilds, name), "-C", source, "build/Release/better_sqlite3.node"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`packing better-sqlite3's prebuilt binary failed: ${r.stderr}`);
  return { npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

/** Packs this checkout and installs the tarball globally into `dir`/prefix. */
export function packAndInstall(dir: string): InstalledPackage {
  const tarball = pack(dir);
  const prefix = path.join(dir, "prefix");
  const home = path.join(dir, "home");
  fs.mkdirSync(path.join(prefix, "lib"), { recursive: true });
  fs.mkdirSync(home);
  // Read with the runner's own HOME: the user config file lives there.
  const settings = {
    npm_config_userconfig: npmSetting("userconfig"),
    npm_config_globalconfig: npmSetting("globalconfig"),
    npm_config_cache: npmSetting("cache"),
    ...betterSqlitePrebuilds(dir),
  };
  npm(
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      "--strict-allow-scripts",
      `--allow-scripts=${ALLOWED_SCRIPTS.join(",")}`,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      tarball,
    ],
    { cwd: dir, env: userEnv(home, prefix, settings) },
  );
  return installedAt(dir);
}

/** What packAndInstall(dir) made, found again in `dir` (a bench may reuse an install). */
export function installedAt(dir: string): InstalledPackage {
  const tarball = fs.readdirSync(dir).find((f) => /^teamhub-.*\.tgz$/.test(f));
  const prefix = path.join(dir, "prefix");
  if (!tarball || !fs.existsSync(path.join(prefix, "bin", "teamhub"))) throw new Error(`${dir} holds no packed and installed teamhub`);
  return {
    tarball: path.join(dir, tarball),
    prefix,
    dir: path.join(prefix, "lib", "node_modules", "teamhub"),
    bin: path.join(prefix, "bin", "teamhub"),
    home: path.join(dir, "home"),
  };
}

/** Bytes under `dir`, links not followed. */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += fs.lstatSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

export type StartedPackage = { child: ChildProcess; output: () => string; hubFile: string; exited: Promise<number | null> };

/** `teamhub start --port 0` of the installed package in `cwd`; the hub says where it listens in <dataDir>/hub.json. */
export function startInstalled(pkg: InstalledPackage, cwd: string, dataDir: string, env: Record<string, string>): StartedPackage {
  const hubFile = path.join(dataDir, "hub.json");
  fs.rmSync(hubFile, { force: true });
  let output = "";
  const child = spawn(pkg.bin, ["start", "--port", "0"], { cwd, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, hubFile, exited };
}
