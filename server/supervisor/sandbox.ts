/**
 * The OS sandbox of one session (docs/security.md#sandbox): the bubblewrap command line that makes the `claude`
 * process see the system read-only, its work dir read-write with `.git/` and `node_modules/`
 * read-only and secrets masked, of HOME only the user's login, of the hub's data dir only its own CLI
 * config dir and MCP config — in its own PID namespace, so no other process is reachable.
 *
 * Every bind uses real paths (symlinks and `..` resolved), so a link in the work dir can only
 * reach what is mounted at its target: a mask, a read-only copy or nothing at all.
 */
import fs from "node:fs";
import path from "node:path";
import { LOGIN_FILE } from "./config-dir.ts";
import { BUILTIN_PROTECTED, DEPENDENCY_DIRS, parseProtected } from "./policy.ts";

export type SandboxInput = {
  bwrap: string;
  /** The CLI as resolved on the host (a symlink is followed: the real file is bound and run). */
  bin: string;
  args: string[];
  workDir: string;
  /**
   * The session's own git work tree (docs/worktrees.md#the-sandbox), when it has one: bound read-write whole (the work dir
   * may be a subdirectory of it), with its `.git` file's git dir and the repository's common dir read-only.
   */
  ownTree?: string;
  /** The session's environment: HOME, CLAUDE_CONFIG_DIR, CLAUDE_SECURESTORAGE_CONFIG_DIR and TMPDIR decide what of HOME is shown. */
  env: Record<string, string>;
  /** Never visible, wherever they lie: the hub's data dir and database, the user's own Claude config. */
  hidden: string[];
  /** The session's own MCP config; with its CLI config dir (CLAUDE_CONFIG_DIR), all it sees of the data dir. Absent for a work tree's setup, run and archive. */
  mcpConfigFile?: string;
  /** The session's safety patterns besides the built-in ones. */
  protectedPaths: string[];
  /** Files of its own tree that `.worktreeinclude` copied in: the owner consented to their being read there, so they are not masked. */
  readable?: string[];
  /** A dir bound read-write at HOME (a work tree's setup and run keep their package caches there); without it HOME is an empty tmpfs. */
  home?: string;
};

export type SandboxCommand = { bin: string; args: string[]; cwd: string };

/** File descriptor bubblewrap writes its status to: `{"child-pid": N}` once the CLI runs, then its exit code. */
export const STATUS_FD = 3;

/** A sandboxed agent's stdio: pipes for stdin, stdout and stderr and up to `statusFd`, which must be open in the child. */
export const stdioWith = (statusFd?: number): "pipe"[] => Array<"pipe">(Math.max(3, (statusFd ?? 0) + 1)).fill("pipe");

const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];
// Name patterns that stay readable (work needs them) but may never be written; in a session's own work tree its
// dependency dirs are its own copy, which it may write (docs/worktrees.md#dependencies).
const READ_ONLY_NAMES = new Set([".git", "node_modules"]);
// A work tree larger than this is scanned only this far; the permission policy still guards the rest.
const SCAN_LIMIT = 50_000;

type Mount =
  | { kind: "ro" | "rw"; src: string; dest: string }
  | { kind: "mask-file" | "mask-dir" | "tmpfs"; dest: string }
  | { kind: "symlink"; target: string; dest: string };

// Later mounts cover earlier ones: a parent comes before what is mounted inside it, and at one path
// binds cover tmpfs (the work dir over an empty HOME), rw covers ro (a work dir under /opt), masks cover all.
const ORDER: Record<Mount["kind"], number> = { symlink: 0, tmpfs: 1, ro: 2, rw: 3, "mask-dir": 4, "mask-file": 5 };
const depth = (p: string) => p.split("/").filter(Boolean).length;
const inside = (p: string, dir: string) => p === dir || p.startsWith(dir === "/" ? "/" : `${dir}/`);

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

// Scans under way, by (work dir, patterns, skip, own): launches asking meanwhile share one walk. An entry
// goes once its walk settles, so every launch gets a walk that started no earlier than its request.
const scans = new Map<string, Promise<Mount[]>>();

/** In the session's own work tree: its dependency dirs are writable, and the files it was given to read are not masked. */
type Own = { tree: boolean; readable: string[] };

/** Masks and read-only binds for protected entries of the work tree, found by a bounded walk. */
function protectedMounts(workDir: string, patterns: string[], skip: string[], own: Own): Promise<Mount[]> {
  const key = JSON.stringify([workDir, patterns, skip, own]);
  let scan = scans.get(key);
  if (!scan) {
    scan = scanProtected(workDir, patterns, skip, own).finally(() => scans.delete(key));
    scans.set(key, scan);
  }
  return scan;
}

async function scanProtected(workDir: string, patterns: string[], skip: string[], own: Own): Promise<Mount[]> {
  const readable = new Set(own.readable);
  const names: RegExp[] = [];
  const mounts: Mount[] = [];
  // `dir` when the caller knows already whether `real` is a directory.
  const mount = (real: string, readOnly: boolean, dir?: boolean) => {
    if (readOnly) mounts.push({ kind: "ro", src: real, dest: real });
    else mounts.push({ kind: (dir ?? isDir(real)) ? "mask-dir" : "mask-file", dest: real });
  };
  for (const { body, name } of parseProtected([...BUILTIN_PROTECTED, ...patterns])) {
    if (name) names.push(name);
    else {
      // A path (relative to the work dir, or absolute) is masked wherever it leads, but for a file it was given to read.
      const real = realOrNull(path.resolve(workDir, body));
      if (real && !readable.has(real)) mount(real, false);
    }
  }
  const queue = [workDir];
  let seen = 0;
  for (let next = 0; next < queue.length && seen < SCAN_LIMIT; next++) {
    const dir = queue[next];
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > SCAN_LIMIT) break;
      const full = path.join(dir, e.name);
      // Its own dependency dir is neither protected nor walked (it holds thousands of files that are its own copy).
      if (own.tree && DEPENDENCY_DIRS.has(e.name)) continue;
      if (readable.has(full)) continue;
      const readOnly = READ_ONLY_NAMES.has(e.name);
      if (readOnly || names.some((re) => re.test(e.name))) {
        // A protected name that is a link protects what it points at, when that is inside the work tree.
        const link = e.isSymbolicLink();
        const real = link ? realOrNull(full) : full;
        if (real && inside(real, workDir)) mount(real, readOnly, link ? undefined : e.isDirectory());
        if (e.name === ".git" && e.isFile()) mounts.push(...linkedGitDirs(full));
        continue;
      }
      if (e.isDirectory() && !skip.includes(full)) queue.push(full);
    }
  }
  // A file it was given to read inside a masked dir (`credentials/dev.json`) is shown through the mask, as the policy allows it.
  for (const file of readable) if (mounts.some((m) => m.kind === "mask-dir" && inside(file, m.dest))) mounts.push({ kind: "rw", src: file, dest: file });
  return mounts;
}

/** A work tree's `.git` file names its git dir (and that one its common dir): readable, never writable. */
function linkedGitDirs(dotGit: string): Mount[] {
  const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, "utf8"));
  const gitDir = m && realOrNull(path.resolve(path.dirname(dotGit), m[1].trim()));
  if (!gitDir) return [];
  const out: Mount[] = [{ kind: "ro", src: gitDir, dest: gitDir }];
  const commonFile = path.join(gitDir, "commondir");
  const common = fs.existsSync(commonFile) && realOrNull(path.resolve(gitDir, fs.readFileSync(commonFile, "utf8").trim()));
  if (common) out.push({ kind: "ro", src: common, dest: common });
  return out;
}

// The system dirs do not change while the hub runs: looked at once.
let systemMountsOnce: Mount[] | null = null;

function systemMounts(): Mount[] {
  return (systemMountsOnce ??= scanSystemMounts());
}

function scanSystemMounts(): Mount[] {
  const out: Mount[] = [];
  for (const dir of SYSTEM_DIRS) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) out.push({ kind: "symlink", target: fs.readlinkSync(dir), dest: dir });
    else if (st.isDirectory()) out.push({ kind: "ro", src: dir, dest: dir });
  }
  // Name resolution must keep working when resolv.conf points elsewhere (systemd-resolved, containers).
  const resolv = realOrNull("/etc/resolv.conf");
  if (resolv && !inside(resolv, "/etc") && !inside(resolv, "/usr")) out.push({ kind: "ro", src: resolv, dest: resolv });
  return out;
}

/**
 * HOME is empty but for the session's own CLI config dir (CLAUDE_CONFIG_DIR) and the user's login: the
 * CLI keeps `.credentials.json` in CLAUDE_SECURESTORAGE_CONFIG_DIR, with its locks beside it (so that dir
 * is an empty writable tmpfs). The login is a mount point there: the CLI's write-then-rename of a refreshed
 * token fails (EBUSY) and it falls back to writing the file in place, which is the user's own. TMPDIR is fresh.
 */
function homeMounts(env: Record<string, string>, writableHome?: string): Mount[] {
  const out: Mount[] = [{ kind: "tmpfs", dest: "/tmp" }];
  const home = env.HOME && path.resolve(env.HOME);
  if (home && home !== "/") out.push({ kind: "tmpfs", dest: realOrNull(home) ?? home });
  if (writableHome) {
    const real = fs.realpathSync(writableHome);
    out.push({ kind: "rw", src: real, dest: real });
  }
  // The agent's own config dir: Claude Code's, or Codex's (docs/runtimes.md), each the session's own.
  for (const dir of [env.CLAUDE_CONFIG_DIR, env.CODEX_HOME]) {
    if (!dir) continue;
    const real = fs.realpathSync(dir);
    out.push({ kind: "rw", src: real, dest: real });
  }
  const loginDir = env.CLAUDE_SECURESTORAGE_CONFIG_DIR && path.resolve(env.CLAUDE_SECURESTORAGE_CONFIG_DIR);
  const login = loginDir && realOrNull(path.join(loginDir, LOGIN_FILE));
  if (loginDir && login) out.push({ kind: "tmpfs", dest: loginDir }, { kind: "rw", src: login, dest: path.join(loginDir, LOGIN_FILE) });
  if (env.TMPDIR && path.resolve(env.TMPDIR) !== "/tmp") out.push({ kind: "tmpfs", dest: path.resolve(env.TMPDIR) });
  return out;
}

function toArgs(m: Mount): string[] {
  switch (m.kind) {
    case "ro":
      return ["--ro-bind", m.src, m.dest];
    case "rw":
      return ["--bind", m.src, m.dest];
    case "tmpfs":
    case "mask-dir":
      return ["--tmpfs", m.dest];
    case "mask-file":
      return ["--ro-bind", "/dev/null", m.dest];
    case "symlink":
      return ["--symlink", m.target, m.dest];
  }
}

/**
 * The files of its own tree it was given to read, as real paths: only in its own tree, and only a file that is where it
 * is written (the policy's rule too): a listed name the session turned into a link unmasks nothing it leads to.
 */
function readableIn(ownTree: string, tree: string, files: string[]): string[] {
  return files.flatMap((p) => {
    const below = (r: string) => r !== "" && r !== ".." && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r);
    const rel = [path.relative(path.resolve(ownTree), path.resolve(p)), path.relative(tree, path.resolve(p))].find(below);
    const real = rel === undefined ? null : realOrNull(p);
    return real !== null && real === path.join(tree, rel!) ? [real] : [];
  });
}

/** The command that runs the CLI in its sandbox: `bwrap <namespaces and mounts> -- <claude> <args>`. */
export async function sandboxCommand(input: SandboxInput): Promise<SandboxCommand> {
  const workDir = fs.realpathSync(input.workDir);
  const bin = fs.realpathSync(input.bin);
  const hidden = input.hidden.map(realOrNull).filter((p): p is string => p !== null);
  const tree = input.ownTree ? fs.realpathSync(input.ownTree) : workDir;
  const mounts: Mount[] = [...systemMounts(), ...homeMounts(input.env, input.home), { kind: "rw", src: tree, dest: tree }];
  const readable = input.ownTree ? readableIn(input.ownTree, tree, input.readable ?? []) : [];
  mounts.push(...(await protectedMounts(tree, input.protectedPaths, hidden, { tree: input.ownTree !== undefined, readable })));
  mounts.push({ kind: "ro", src: bin, dest: bin });
  for (const real of hidden) {
    // Covered once: not again inside another hidden dir, nor where an empty tmpfs is mounted already (the login's dir).
    if (mounts.some((m) => m.kind === "tmpfs" && m.dest === real)) continue;
    if (!hidden.some((h) => h !== real && inside(real, h) && isDir(h))) mounts.push({ kind: isDir(real) ? "mask-dir" : "mask-file", dest: real });
  }
  const binds = mounts.filter((m) => m.kind === "ro" || m.kind === "rw");
  // A mask is needed only where something shown contains it; elsewhere the path is absent already.
  const needed = mounts.filter((m) => (m.kind !== "mask-dir" && m.kind !== "mask-file") || binds.some((b) => inside(m.dest, b.dest)));
  if (input.mcpConfigFile) {
    const mcp = fs.realpathSync(input.mcpConfigFile);
    needed.push({ kind: "ro", src: mcp, dest: mcp });
  }
  // Parents first; at one path, ORDER decides.
  const ordered = needed.map((m, i) => ({ m, i })).sort((a, b) => depth(a.m.dest) - depth(b.m.dest) || ORDER[a.m.kind] - ORDER[b.m.kind] || a.i - b.i);
  const args = [
    "--die-with-parent",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // No --new-session: the hub starts bubblewrap as the leader of a new session (server/supervisor/child-process.ts),
    // which leaves the sandbox no controlling terminal, and whose autogroup it can then lower.
    // Run by root, bubblewrap would keep the capabilities, and with them umount: a mask could be lifted.
    "--cap-drop",
    "ALL",
    // The CLI is pid 1 of its namespace, so a signal to it arrives (bwrap itself forwards none) and its end ends every process it started.
    "--as-pid-1",
    "--json-status-fd",
    String(STATUS_FD),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...ordered.flatMap(({ m }) => toArgs(m)),
    // Masked dirs turn read-only only now, once everything mounted inside them (the session's own MCP config) is in place.
    ...ordered.flatMap(({ m }) => (m.kind === "mask-dir" ? ["--remount-ro", m.dest] : [])),
    "--chdir",
    workDir,
    "--",
    bin,
    ...input.args,
  ];
  return { bin: input.bwrap, args, cwd: workDir };
}
