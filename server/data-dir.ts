/**
 * The data directory holds the operator token, session tokens and the database: only the hub's
 * own user may enter it (0700) or read its files (0600). Modes are set on what the hub creates and
 * corrected at every start, so a data dir made by an older version or a loose umask is fixed too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** The operator's bearer token, written at the hub's first start; the CLI on this machine reads it. */
export const OPERATOR_TOKEN_FILE = "operator-token";

/** The database's suffixes: the file itself and SQLite's companions, wherever DATABASE_URL puts them. */
export const DB_FILES = ["", "-wal", "-shm", "-journal"];

/**
 * Sessions' git work trees (docs/worktrees.md): their files keep the modes git gave them (an executable script stays
 * executable); the directory itself is private like the rest.
 */
export const WORKTREES = "worktrees";

/** Files and directories under `root`, without following symlinks (a link out of the data dir is left alone). */
function tighten(root: string) {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    fs.chmodSync(dir, DIR_MODE);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && dir === root && entry.name === WORKTREES) fs.chmodSync(full, DIR_MODE);
      else if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) fs.chmodSync(full, FILE_MODE);
    }
  }
}

/**
 * Creates the data dir private, fixes the modes of everything in it, and creates the database
 * file 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
 * On PostgreSQL (`databaseFile` null) the database's files are the server's business.
 */
export function secureDataDir(dataDir: string, databaseFile: string | null) {
  fs.mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  tighten(dataDir);
  if (databaseFile === null) return;
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true, mode: DIR_MODE });
  fs.closeSync(fs.openSync(databaseFile, "a", FILE_MODE));
  secureDatabaseFiles(databaseFile);
}

/** The database and its journal files, wherever DATABASE_URL put them. */
function secureDatabaseFiles(databaseFile: string) {
  for (const suffix of DB_FILES) {
    const f = databaseFile + suffix;
    if (fs.existsSync(f)) fs.chmodSync(f, FILE_MODE);
  }
}

export function writePrivateFile(file: string, text: string) {
  fs.writeFileSync(file, text, { mode: FILE_MODE });
  fs.chmodSync(file, FILE_MODE);
}

/**
 * How the hub found its data directory: TEAMHUB_DATA_DIR (or --data-dir), the `./data` an earlier version made in the
 * current directory, or the default `~/.teamhub` (docs/distribution.md#data).
 */
export type DataDirOrigin = "explicit" | "legacy" | "home";

/** What versions before 0.2 used by default, relative to the directory the hub started in. */
export const LEGACY_DATA_DIR = "data";
export const HOME_DATA_DIR = ".teamhub";

/** A directory an earlier hub used: it has the operator token or the SQLite database every hub writes there. */
export function isHubDataDir(dir: string): boolean {
  return fs.existsSync(path.join(dir, "operator-token")) || fs.existsSync(path.join(dir, "teamhub.db"));
}

/**
 * The data directory when nothing names one: `./data` when an earlier version left a hub's data there (it keeps being
 * used, so no database is lost), else `~/.teamhub`, shared by every directory the command runs from.
 */
export function chooseDataDir(explicit: string | undefined, cwd = process.cwd(), home = os.homedir()): { dir: string; origin: DataDirOrigin } {
  if (explicit) return { dir: path.resolve(cwd, explicit), origin: "explicit" };
  const legacy = path.join(cwd, LEGACY_DATA_DIR);
  if (isHubDataDir(legacy)) return { dir: legacy, origin: "legacy" };
  return { dir: path.join(home, HOME_DATA_DIR), origin: "home" };
}

/** What `teamhub start` says when it keeps using an earlier version's `./data`: that it does, and how to move it. */
export function legacyDataDirNotice(dir: string, home = os.homedir()): string {
  const target = path.join(home, HOME_DATA_DIR);
  return [
    `using ${dir}, the data directory an earlier version made here (hubs now keep their data in ${target} by default).`,
    `  To keep this one per project, start with TEAMHUB_DATA_DIR=${dir} (or from this directory, as now).`,
    fs.existsSync(target)
      ? `  ${target} exists already, so this one stays where it is; point TEAMHUB_DATA_DIR at the one to use.`
      : `  To make it the default: stop the hub, then \`mv ${dir} ${target}\` (sessions' work trees: \`git worktree repair\` in their repositories).`,
  ].join("\n");
}
