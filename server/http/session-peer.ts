/**
 * Whether a loopback TCP connection comes from a supervised session's process (§13).
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

/**
 * Inodes of sockets whose local port is `clientPort` and remote port `serverPort`. The tables can be
 * long (every TIME_WAIT socket is listed), so they are read asynchronously and searched with one regex.
 */
async function socketInodes(clientPort: number, serverPort: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const row = new RegExp(`^ *\\d+: [0-9A-F]+:${hex4(clientPort)} [0-9A-F]+:${hex4(serverPort)} (?:\\S+ +){6}(\\d+)`, "gm");
  for (const table of ["net/tcp", "net/tcp6"]) {
    const text = await fs.promises.readFile(`${PROC}/${table}`, "utf8").catch(() => "");
    for (const m of text.matchAll(row)) if (m[1] !== "0") inodes.add(m[1]);
  }
  return inodes;
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

function holds(pid: number, targets: Set<string>): boolean {
  let fds: string[];
  try {
    fds = fs.readdirSync(`${PROC}/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return targets.has(fs.readlinkSync(`${PROC}/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}

/**
 * Answers, once per connection, whether its peer is a session's process. `sessionPids` lists the
 * processes the supervisor started (bubblewrap's, or the CLI's itself without the sandbox).
 */
export function createSessionPeerCheck(sessionPids: () => Iterable<number>) {
  const known = new WeakMap<Socket, Promise<boolean>>();
  async function check(socket: Socket, roots: Set<number>): Promise<boolean> {
    if (socket.remotePort === undefined || socket.localPort === undefined) return true;
    const inodes = await socketInodes(socket.remotePort, socket.localPort);
    if (inodes.size === 0) return true;
    const targets = new Set([...inodes].map((i) => `socket:[${i}]`));
    return suspects(processes(), roots).some((pid) => holds(pid, targets));
  }
  return function fromSession(socket: Socket): Promise<boolean> {
    let answer = known.get(socket);
    if (!answer) {
      const roots = new Set(sessionPids());
      // No session process alive: none can be at the other end (a sandbox dies with its bubblewrap).
      answer = roots.size === 0 ? Promise.resolve(false) : check(socket, roots).catch(() => true);
      known.set(socket, answer);
    }
    return answer;
  };
}
