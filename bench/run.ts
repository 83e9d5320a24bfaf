/**
 * `npm run bench`: every bench/*.bench.ts, in name order, in this one process, so a ratio
 * compares two figures measured on the same machine at the same moment. A failed correctness
 * check makes the exit code non-zero; a missed target only prints MISS.
 * `npm run bench -- worktrees.setup sessions`: only the files whose name starts with one of the words, dots read as
 * dashes (`worktrees.setup` runs worktrees-setup.bench.ts, `worktrees` both work-tree files).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).map((word) => word.replaceAll(".", "-"));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (only.length === 0 || only.some((word) => f.startsWith(word))))
  .sort();
if (files.length === 0) throw new Error(`no bench file starts with ${only.join(" or ")}`);

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
