/**
 * Where the hub is and who we are, for every command: --url/--token, then TEAMHUB_URL and
 * TEAMHUB_TOKEN, then what a running hub wrote into its data directory.
 */
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
import { chooseDataDir, LEGACY_DATA_DIR, OPERATOR_TOKEN_FILE } from "../data-dir.ts";
import { FROM_SOURCES, PROJECT_ROOT } from "../version.ts";

/** `hub.json` in the data dir: where a running hub listens. */
const HUB_FILE = "hub.json";

export type GlobalOptions = { url?: string; token?: string; team?: string; json?: boolean; dataDir?: string };
export type HubTarget = { url: string; token: string | null; dataDir: string };

/**
 * The data directory, found as `teamhub start` finds it, so any directory reaches the running hub: --data-dir,
 * TEAMHUB_DATA_DIR, ./data where an earlier version left a hub's data, else ~/.teamhub. A clone's own ./data (where
 * `npm start` kept it before) still answers from its subdirectories while a hub runs on it.
 */
export function dataDirOf(opts: GlobalOptions): string {
  const chosen = chooseDataDir(opts.dataDir || process.env.TEAMHUB_DATA_DIR);
  const running = (dir: string) => fs.existsSync(path.join(dir, HUB_FILE));
  if (chosen.origin !== "home" || !FROM_SOURCES || running(chosen.dir)) return chosen.dir;
  const clones = path.join(PROJECT_ROOT, LEGACY_DATA_DIR);
  return running(clones) ? clones : chosen.dir;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

const HubFile = z.object({ url: z.string().optional() });

export function targetOf(opts: GlobalOptions): HubTarget {
  const dataDir = dataDirOf(opts);
  const hubFile = readIfExists(path.join(dataDir, HUB_FILE));
  const advertised = hubFile ? HubFile.parse(JSON.parse(hubFile)).url : undefined;
  const url = (opts.url || process.env.TEAMHUB_URL || advertised || "http://127.0.0.1:3000").replace(/\/+$/, "");
  const token = opts.token ?? process.env.TEAMHUB_TOKEN ?? readIfExists(path.join(dataDir, OPERATOR_TOKEN_FILE));
  return { url, token, dataDir };
}
