/**
 * Ending the agent process a hub killed with -9 left running (docs/sessions.md#restart-recovery). Its recorded pid is
 * bubblewrap's when the session ran sandboxed, and bubblewrap dies of SIGTERM without passing it on: the CLI inside is
 * then killed by --die-with-parent before it writes what it holds of the conversation (2.1.197 buffers its
 * transcript), and a resume finds no conversation. So SIGTERM goes to the processes under it that carry the
 * conversation's id, and the whole tree gets SIGKILL only if they have not ended within the grace period.
 */
import fs from "node:fs";

const POLL_MS = 25;

/** Ends process `pid` and what runs under it, if its command line names `marker`; resolves once they are gone. */
export async function endOrphan(pid: number, marker: string, graceMs = 5000): Promise<void> {
  if (!commandLine(pid)?.includes(marker)) return; // gone already, or the pid was reused by another process
  const under = descendants(pid);
  const tree = under.map((p) => p.pid);
  const carriers = under.filter((p) => commandLine(p.pid)?.includes(marker));
  // The innermost ones: a process between them (a second bubblewrap) would again die without passing the signal on.
  const innermost = carriers.filter((c) => !carriers.some((o) => o.ppid === c.pid)).map((c) => c.pid);
  for (const p of innermost.length ? innermost : [pid]) signal(p, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (![pid, ...tree].some(running)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  for (const p of [pid, ...tree]) signal(p, "SIGKILL");
}

function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return null;
  }
}

/** `/proc/<pid>/stat`: the state is the field after the name in parentheses, then the parent's pid. */
function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** A zombie has ended; only its parent has not collected it yet. */
const running = (pid: number) => {
  const s = stat(pid);
  return s !== null && s.state !== "Z";
};

/** Every process under `root`, nearest first. */
function descendants(root: number): Array<{ pid: number; ppid: number }> {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    const pid = Number(name);
    const s = Number.isInteger(pid) ? stat(pid) : null;
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  const out: Array<{ pid: number; ppid: number }> = [];
  for (let i = -1; i < out.length; i++) {
    const parent = i < 0 ? root : out[i].pid;
    for (const pid of children.get(parent) ?? []) out.push({ pid, ppid: parent });
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Ended meanwhile.
  }
}
