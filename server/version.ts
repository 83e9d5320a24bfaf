import fs from "node:fs";
import { z } from "zod";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function hubVersion(): string {
  return z.object({ version: z.string() }).parse(JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"))).version;
}
