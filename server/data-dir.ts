/**
 * The data directory holds the operator token, session tokens and the database: only the hub's
 * own user may enter it (0700) or read its files (0600). Modes are set on what the hub creates and
 * corrected at every start, so a data dir made by an older version or a loose umask is fixed too.
 */
import fs from "node:fs";
import path from "node:path";

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

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
