/**
 * What `teamhub setup` created outside the hub (a settings file, its directories, a git exclude
 * line), remembered in the hub's data directory, so that --uninstall deletes those (files and
 * directories once they are empty) and never anything the user already had. Losing this record
 * errs on the safe side: an empty file or directory, or an exclude line, is left behind.
 */
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";

/** `mode`: what a file the user already had was before setup made it private (it holds a token). */
const Created = z.object({
  file: z.boolean(),
  dirs: z.array(z.string()),
  exclusion: z.object({ excludeFile: z.string(), line: z.string() }).optional(),
  mode: z.number().int().optional(),
});
export type Created = z.output<typeof Created>;

const RECORD = "claude-setup-created.json";

function load(dataDir: string): Record<string, Created> {
  const file = path.join(dataDir, RECORD);
  return fs.existsSync(file) ? z.record(z.string(), Created).parse(JSON.parse(fs.readFileSync(file, "utf8"))) : {};
}

function save(dataDir: string, all: Record<string, Created>) {
  const file = path.join(dataDir, RECORD);
  if (Object.keys(all).length === 0) return void fs.rmSync(file, { force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

export const recall = (dataDir: string, target: string): Created | undefined => load(dataDir)[target];

/** Adds to what is known: a re-run finds the file existing, but setup still made it. */
export function remember(dataDir: string, target: string, created: Created) {
  const all = load(dataDir);
  const known = all[target];
  const exclusion = created.exclusion ?? known?.exclusion;
  // The first mode recorded is the user's: a re-run finds the file already private.
  const mode = known?.mode ?? created.mode;
  all[target] = {
    file: created.file || (known?.file ?? false),
    dirs: [...new Set([...(known?.dirs ?? []), ...created.dirs])],
    ...(exclusion ? { exclusion } : {}),
    ...(mode !== undefined ? { mode } : {}),
  };
  save(dataDir, all);
}

export function forget(dataDir: string, target: string) {
  const all = load(dataDir);
  delete all[target];
  save(dataDir, all);
}

/** mkdir -p, returning the directories it made, outermost first. */
export function makeDirs(dir: string): string[] {
  const first = fs.mkdirSync(dir, { recursive: true });
  if (!first) return [];
  const made = [dir];
  for (let d = dir; d !== first; d = path.dirname(d)) made.unshift(path.dirname(d));
  return made;
}

function isEmptyObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

/** Removes what setup made, innermost first, as long as it is gone or empty, and gives a file the user had its mode back. */
export function removeCreated(target: string, created: Created | undefined) {
  if (!created) return;
  if (created.file && fs.existsSync(target) && isEmptyObject(fs.readFileSync(target, "utf8"))) fs.rmSync(target);
  if (created.mode !== undefined && fs.existsSync(target)) fs.chmodSync(target, created.mode);
  for (const dir of [...created.dirs].reverse()) {
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
}
