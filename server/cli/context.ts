/**
 * Where the hub is and who we are, for every command: --url/--token, then TEAMHUB_URL and
 * TEAMHUB_TOKEN, then what a running hub wrote into its data directory.
 */
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OPERATOR_TOKEN_FILE } from "../domain/auth/tokens.service.ts";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type GlobalOptions = { url?: string; token?: string; team?: string; json?: boolean; dataDir?: string };
export type HubTarget = { url: string; token: string | null; dataDir: string };

/** The data directory: --data-dir, TEAMHUB_DATA_DIR, ./data if it exists here, else the project's. */
export function dataDirOf(opts: GlobalOptions): string {
  if (opts.dataDir) return path.resolve(opts.dataDir);
  if (process.env.TEAMHUB_DATA_DIR) return path.resolve(process.env.TEAMHUB_DATA_DIR);
  const local = path.resolve("data");
  return fs.existsSync(path.join(local, OPERATOR_TOKEN_FILE)) ? local : path.join(PROJECT_ROOT, "data");
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** `hub.json` in the data dir: where a running hub listens. */
const HubFile = z.object({ url: z.string().optional() });

export function targetOf(opts: GlobalOptions): HubTarget {
  const dataDir = dataDirOf(opts);
  const hubFile = readIfExists(path.join(dataDir, "hub.json"));
  const advertised = hubFile ? HubFile.parse(JSON.parse(hubFile)).url : undefined;
  const url = (opts.url || process.env.TEAMHUB_URL || advertised || "http://127.0.0.1:3000").replace(/\/+$/, "");
  const token = opts.token ?? process.env.TEAMHUB_TOKEN ?? readIfExists(path.join(dataDir, OPERATOR_TOKEN_FILE));
  return { url, token, dataDir };
}
