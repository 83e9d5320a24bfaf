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
import fs from "node:fs/promises";
import type { Socket } from "node:net";

const PROC = "/proc";

/** `0100007F:D431` → 54321: the port is the part after the colon, in hex. */
const portOf = (field: string) => parseInt(field.slice(field.indexOf(":") + 1), 16);

/** Inodes of sockets whose local port is `clientPort` and remote port `serverPort`. */
async function socketInodes(clientPort: number, serverPort: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of ["net/tcp", "net/tcp6"]) {
    const text = await fs.readFile(`${PROC}/${table}`, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && portOf(cols[1]) === clientPort && portOf(cols[2]) === serverPort) inodes.add(cols[9]);
    }
  }
  return inodes;
}

type Proc = { pid: number; ppid: number; foreignNs: boolean };

async function processes(): Promise<Proc[]> {
  const ownNs = await fs.readlink(`${PROC}/self/ns/pid`);
  const pids = (await fs.readdir(PROC)).filter((n) => /^\d+$/.test(n)).map(Number);
  const found = await Promise.all(
    pids.map(async (pid): Promise<Proc | null> => {
      try {
        const stat = await fs.readFile(`${PROC}/${pid}/stat`, "utf8");
        // The command name may hold spaces and parentheses: the fields we want follow the last ')'.
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const ns = await fs.readlink(`${PROC}/${pid}/ns/pid`);
        return { pid, ppid, foreignNs: ns !== ownNs };
      } catch {
        return null; // it exited meanwhile
      }
    }),
  );
  return found.filter((p): p is Proc => p !== null);
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

async function holds(pid: number, targets: Set<string>): Promise<boolean> {
  const fds = await fs.readdir(`${PROC}/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const link = await fs.readlink(`${PROC}/${pid}/fd/${fd}`).catch(() => "");
    if (targets.has(link)) return true;
  }
  return false;
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
    const candidates = suspects(await processes(), roots);
    const found = await Promise.all(candidates.map((pid) => holds(pid, targets)));
    return found.some(Boolean);
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
