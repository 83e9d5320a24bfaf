/**
 * The CLI's config dir of one session: its own, `<data>/sessions/<pk>/claude`, never the user's. What a
 * session writes there (settings with hooks, CLAUDE.md, commands, agents, plugins, MCP servers in
 * `.claude.json`) therefore runs in no other session and not in the user's own `claude`, and no session
 * reads another's conversations. Of the user's config dir a session gets the login only: CLI 2.1.x keeps
 * `.credentials.json` (and the locks around refreshing it) in CLAUDE_SECURESTORAGE_CONFIG_DIR when that is
 * set, apart from CLAUDE_CONFIG_DIR, so the session uses and refreshes the user's own login file.
 */
import fs from "node:fs";
import path from "node:path";

/** The login `claude /login` leaves in a config dir. */
export const LOGIN_FILE = ".credentials.json";

/**
 * The conversation the CLI opens: a resumed session's own, or a fork's, kept in its parent's session dir.
 * `through` is the last message the parent's CLI reported: a live parent's CLI writes its conversation up to
 * 100 ms behind, so the copy waits until the file holds that message (at most WRITE_WAIT_MS).
 */
export type Conversation = { id: string; parentSessionDir?: string; through?: string | null };

export type SessionConfig = {
  /** The session's environment: CLAUDE_CONFIG_DIR its own dir; CLAUDE_SECURESTORAGE_CONFIG_DIR the user's config dir, when the login is there. */
  env: Record<string, string>;
  /** The user's own Claude config (config dir, `~/.claude`, `~/.claude.json`): never shown to a session. */
  userConfig: string[];
};

export const configDirOf = (sessionDir: string) => path.join(sessionDir, "claude");

// Far longer than the CLI's write interval (100 ms); a parent killed before writing never does, and the launch goes on.
const WRITE_WAIT_MS = 2_000;

/**
 * Makes the session's config dir (0700) and the environment that points the CLI at it. `base` is the
 * environment the user's own `claude` would have: its CLAUDE_CONFIG_DIR, else `~/.claude`, is where the
 * login is looked for. A conversation to open that is not in the session's dir yet is copied in: a fork's
 * from its parent's dir, and one from before sessions had their own dirs from the user's config dir.
 */
export async function sessionConfig(base: Record<string, string>, sessionDir: string, conversation: Conversation | null): Promise<SessionConfig> {
  const home = base.HOME ? path.resolve(base.HOME) : null;
  const userDir = base.CLAUDE_CONFIG_DIR ? path.resolve(base.CLAUDE_CONFIG_DIR) : home && path.join(home, ".claude");
  const own = configDirOf(sessionDir);
  fs.mkdirSync(own, { recursive: true, mode: 0o700 });
  if (conversation && !conversationIn(own, conversation.id)) {
    const parent = conversation.parentSessionDir && configDirOf(conversation.parentSessionDir);
    if (parent && conversation.through && fs.existsSync(parent)) await writtenThrough(parent, conversation.id, conversation.through);
    [parent, userDir].some((from) => from && copyConversation(from, own, conversation.id));
  }
  // Only the hub decides where the login is read from.
  const { CLAUDE_SECURESTORAGE_CONFIG_DIR: _, ...env } = base;
  env.CLAUDE_CONFIG_DIR = fs.realpathSync(own);
  if (userDir && isFile(path.join(userDir, LOGIN_FILE))) env.CLAUDE_SECURESTORAGE_CONFIG_DIR = fs.realpathSync(userDir);
  const userConfig = [userDir, home && path.join(home, ".claude"), home && path.join(home, ".claude.json")].filter((p): p is string => !!p);
  return { env, userConfig: [...new Set(userConfig)] };
}

// A session may leave links in its own config dir: the hub follows none of them.
function isFile(p: string): boolean {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** The project dir (`projects/<slug>`) of `configDir` that holds conversation `id`, if any. */
function conversationIn(configDir: string, id: string): string | null {
  const projects = path.join(configDir, "projects");
  try {
    if (!fs.lstatSync(projects).isDirectory()) return null;
    return fs.readdirSync(projects, { withFileTypes: true }).find((e) => e.isDirectory() && isFile(path.join(projects, e.name, `${id}.jsonl`)))?.name ?? null;
  } catch {
    return null;
  }
}

function holds(configDir: string, id: string, text: string): boolean {
  const slug = conversationIn(configDir, id);
  try {
    return slug !== null && fs.readFileSync(path.join(configDir, "projects", slug, `${id}.jsonl`), "utf8").includes(text);
  } catch {
    return false;
  }
}

/** Resolves once `configDir` holds conversation `id` through message `uuid`, or after WRITE_WAIT_MS. */
function writtenThrough(configDir: string, id: string, uuid: string): Promise<void> {
  return new Promise((resolve) => {
    let watcher: fs.FSWatcher | null = null;
    const done = () => {
      watcher?.close();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, WRITE_WAIT_MS);
    try {
      watcher = fs.watch(configDir, { recursive: true }, () => holds(configDir, id, uuid) && done());
    } catch {
      return done();
    }
    // Written before the watch began.
    if (holds(configDir, id, uuid)) done();
  });
}

/** `root/<parts>`, made where missing (0700); null when a part is anything but a directory. */
function plainDir(root: string, ...parts: string[]): string | null {
  let dir = root;
  for (const part of parts) {
    dir = path.join(dir, part);
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (!fs.lstatSync(dir).isDirectory()) return null;
  }
  return dir;
}

/** Copies conversation `id` from `from` into the same project dir of `to`; false when `from` has none. */
function copyConversation(from: string, to: string, id: string): boolean {
  const slug = conversationIn(from, id);
  if (!slug) return false;
  const file = `${id}.jsonl`;
  // No link is followed, even one put there since it was looked at: the copy is the session's to read.
  const fd = fs.openSync(path.join(from, "projects", slug, file), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const dest = fs.fstatSync(fd).isFile() ? plainDir(to, "projects", slug) : null;
    if (!dest) return false;
    fs.writeFileSync(path.join(dest, file), fs.readFileSync(fd), { mode: 0o600, flag: "wx" });
    return true;
  } finally {
    fs.closeSync(fd);
  }
}
