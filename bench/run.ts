/**
 * `npm run bench`: every bench/*.bench.ts, in name order, in this one process, so a ratio
 * compares two figures measured on the same machine at the same moment. A failed correctness
 * check makes the exit code non-zero; a missed target only prints MISS.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort();

console.log(`teamhub bench: node ${process.version}, ${new Date().toISOString()}, ${os.platform()} ${os.arch()}, ${os.availableParallelism()} CPUs`);
for (const file of files) {
  try {
    const bench = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
    await bench.default();
  } catch (e) {
    console.error(`FAIL ${file}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  }
}
