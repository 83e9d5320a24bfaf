/** OS processes that publish through a hub's HTTP API (e2e/helpers/publish-worker.mjs), and how their report is read. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "./hub-process.ts";

export type PublisherReport = { pid: number; versions: number[]; failures: string[] };

/**
 * The JSON a child process prints on stdout, read at `close`, once its stdout has ended. At `exit` a loaded machine
 * may not have delivered it yet (Node says the streams may still be open): parsing then threw inside the handler, the
 * promise never settled, and the test waited out its limit.
 */
export function jsonReport<T>(child: ChildProcess, label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}`));
      try {
        resolve(JSON.parse(out) as T);
      } catch {
        reject(new Error(`${label}'s report is not JSON: ${JSON.stringify(out)}`));
      }
    });
  });
}

/** One process publishing `count` versions of an artifact through the hub at `url`, one request at a time. */
export function publisher(url: string, artifactId: string, count: number): Promise<PublisherReport> {
  const child = spawn(process.execPath, [path.join(ROOT, "e2e/helpers/publish-worker.mjs"), url, artifactId, String(count)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return jsonReport(child, "publisher");
}
