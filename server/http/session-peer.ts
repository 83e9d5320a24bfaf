/**
 * Whether a loopback TCP connection comes from a supervised session's process (docs/security.md#loopback-is-not-the-operator-for-a-session).
 *
 * On a hub that requires no token, a tokenless request acts as the operator: that is how the
 * dashboard and the CLI on the same machine work. A session shares the hub's network (its `/mcp` and
 * the Messages API are reached over it), so without this check `curl http://127.0.0.1:3000/api/…`
 * from a session's Bash would make it the operator. The peer process is found through /proc: the
 * client socket's inode in /proc/net/tcp{,6}, then the process holding that inode among the
 * suspects — processes in another PID namespace (every sandboxed session has its own) and processes
 * below a session process the supervisor started (sessions without the sandbox). A connection whose
 * peer cannot be established is treated as a session's: the check fails closed.
 */
import fs from "node:fs";
import type { Socket } from "node:net";

const PROC = "/proc";
const hex4 = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");

/** Both TCP tables as text. They can be long (every TIME_WAIT socket is listed), so they are read asynchronously. */
async function readTables(): Promise<string> {
  const texts = await Promise.all(["net/tcp", "net/tcp6"].map((t) => fs.promises.readFile(`${PROC}/${t}`, "utf8").catch(() => "")));
  return texts.join("\n");
}

/** Inodes of the sockets in `tables` whose local port is `clientPort` and remote port `serverPort`, found with one regex. */
function socketInodes(tables: string, clientPort: number, serverPort: number): Set<string> {
  const row = new RegExp(`^ *\\d+: [0-9A-F]+:${hex4(clientPort)} [0-9A-F]+:${hex4(serverPort)} (?:\\S+ +){6}(\\d+)`, "gm");
  return new Set([...tables.matchAll(row)].map((m) => m[1]).filter((inode) => inode !== "0"));
}

type Proc = { pid: number; ppid: number; foreignNs: boolean };

/**
 * Every process with its parent and whether it lives in another PID namespace. Read synchronously:
 * procfs answers these small reads from memory (about 20 µs a process), far cheaper than a trip
 * through the thread pool each, and a brand-new process must never be missed by a cached view.
 */
function processes(): Proc[] {
  const ownNs = fs.readlinkSync(`${PROC}/self/ns/pid`);
  const out: Proc[] = [];
  for (const name of fs.readdirSync(PROC)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`${PROC}/${name}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields we want follow the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(name), ppid, foreignNs: fs.readlinkSync(`${PROC}/${name}/ns/pid`) !== ownNs });
    } catch {
      // it exited meanwhile
    }
  }
  return out;
}

/** Processes in another PID namespace, and every descendant of one of `roots` (the roots included). */
function suspects(procs: Proc[], roots: ReadonlySet<number>): number[] {
  const parent = new Map(procs.map((p) => [p.pid, p.ppid]));
  const below = (pid: number) => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 1000; at = parent.get(at), hops++) if (roots.has(at)) return true;
    return false;
  };
  return procs.filter((p) => p.foreignNs || below(p.pid)).map((p) => p.pid);
}

/** The sockets a process holds, as their fd links read (`socket:[inode]`). */
function socketsOf(pid: number): string[] {
  let fds: string[];
  try {
    fds = fs.readdirSync(`${PROC}/${pid}/fd`);
  } catch {
    return [];
  }
  return fds.flatMap((fd) => {
    try {
      const link = fs.readlinkSync(`${PROC}/${pid}/fd/${fd}`);
      return link.startsWith("socket:") ? [link] : [];
    } catch {
      return [];
    }
  });
}

/** The TCP tables and the sockets every session process holds, all read after `startedAt`. */
type View = { startedAt: number; tables: string; held: Set<string> };

/**
 * Answers, once per connection, whether its peer is a session's process. `sessionPids` lists the
 * processes the supervisor started (bubblewrap's, or the CLI's itself without the sandbox).
 *
 * A burst of new connections (fifty spawns at once) shares one read of the TCP tables and the process
 * table: a view read after a connection was accepted is valid for it, because its socket, its table
 * row and its peer process existed before the accept. A connection accepted while a view is being
 * read waits for the next one.
 */
export function createSessionPeerCheck(sessionPids: () => Iterable<number>) {
  const known = new WeakMap<Socket, Promise<boolean>>();
  const acceptedAt = new WeakMap<Socket, number>();
  let latest: { startedAt: number; view: Promise<View>; done: boolean } | null = null;
  let next: Promise<View> | null = null;

  function start(roots: Set<number>): Promise<View> {
    const startedAt = performance.now();
    const view = readTables().then((tables) => ({ startedAt, tables, held: new Set(suspects(processes(), roots).flatMap(socketsOf)) }));
    const entry = { startedAt, view, done: false };
    latest = entry;
    void view.finally(() => (entry.done = true)).catch(() => undefined);
    return view;
  }

  function viewSince(t: number, roots: Set<number>): Promise<View> {
    if (latest && latest.startedAt >= t) return latest.view;
    if (!latest || latest.done) return start(roots);
    next ??= latest.view
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start(new Set(sessionPids()));
      });
    return next;
  }

  async function check(socket: Socket, roots: Set<number>): Promise<boolean> {
    if (socket.remotePort === undefined || socket.localPort === undefined) return true;
    const { tables, held } = await viewSince(acceptedAt.get(socket) ?? performance.now(), roots);
    const inodes = socketInodes(tables, socket.remotePort, socket.localPort);
    return inodes.size === 0 || [...inodes].some((i) => held.has(`socket:[${i}]`));
  }

  return {
    /** Call for every accepted connection: its accept time decides which process views may answer for it. */
    accepted(socket: Socket): void {
      acceptedAt.set(socket, performance.now());
    },
    fromSession(socket: Socket): Promise<boolean> {
      let answer = known.get(socket);
      if (!answer) {
        const roots = new Set(sessionPids());
        // No session process alive: none can be at the other end (a sandbox dies with its bubblewrap).
        answer = roots.size === 0 ? Promise.resolve(false) : check(socket, roots).catch(() => true);
        known.set(socket, answer);
      }
      return answer;
    },
  };
}
