/** What the session benchmarks watch while a hub works: its `claude` processes, and a probe called on a period. */
import fs from "node:fs";

/** `claude` processes under the hub: descendants whose command line is a stream-json session, counted once even when wrapped. */
function claudeProcesses(hubPid: number): number {
  const parent = new Map<number, number>();
  const isClaude = new Set<number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("stream-json")) isClaude.add(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === hubPid) return true;
    return false;
  };
  return [...isClaude].filter((pid) => under(pid) && !isClaude.has(parent.get(pid)!)).length;
}

/** Calls `fn` every `everyMs` until stopped (a slow call delays the next). */
export function every(everyMs: number, fn: () => Promise<void> | void): () => Promise<void> {
  let on = true;
  const loop = (async () => {
    while (on) {
      const t0 = performance.now();
      await fn();
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (performance.now() - t0))));
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

/** The peak number of the hub's `claude` processes, sampled every 50 ms until the returned stop, which gives it. */
export function peakProcesses(hubPid: number): () => Promise<number> {
  let peak = 0;
  const stop = every(50, () => void (peak = Math.max(peak, claudeProcesses(hubPid))));
  return async () => {
    await stop();
    return peak;
  };
}
