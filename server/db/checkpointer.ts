/**
 * Background WAL checkpoints. With SQLite's default auto-checkpoint, roughly every 90th commit
 * copies the WAL into the database file and fsyncs it, inside that commit: a write stall of
 * several milliseconds for whoever is unlucky. Here a worker thread checkpoints PASSIVE-ly a few
 * times a second instead, and the writer's own auto-checkpoint stays only as a distant safety net.
 */
import { Worker } from "node:worker_threads";

/** Pages the WAL may grow to before the writer checkpoints by itself (about 80 MB of 4 KiB pages). */
export const SAFETY_NET_PAGES = 20_000;

export function startCheckpointer(file: string, intervalMs = 250): { stop(): void } {
  const worker = new Worker(new URL("./checkpoint-worker.mjs", import.meta.url), { workerData: { file, intervalMs } });
  worker.unref();
  worker.on("error", (e) => console.error("[teamhub] checkpoint worker failed:", e));
  return {
    stop() {
      worker.postMessage("stop");
    },
  };
}
