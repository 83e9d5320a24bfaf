// Runs WAL checkpoints on its own thread and connection, so that no commit on the hub's writer
// ever waits for the database file to be copied and fsynced (see checkpointer.ts).
import { parentPort, workerData } from "node:worker_threads";
import BetterSqlite3 from "better-sqlite3";

const db = new BetterSqlite3(workerData.file, { timeout: 1000 });
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // A busy database is fine: the next round catches up.
  }
}, workerData.intervalMs);

parentPort.on("message", (m) => {
  if (m !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
