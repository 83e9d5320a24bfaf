/**
 * Web side (docs/security.md#web-side): the data dir (operator token, session tokens, database) is the hub user's alone —
 * 0700, files 0600, SQLite's -wal/-shm included — on a fresh start and after a start on a data
 * dir whose modes were left open (an older version, a loose umask).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { api, startHub, tempDataDir, type HubProcess } from "../helpers/hub-process.ts";
import { attack } from "./attack.ts";

const hubs: HubProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const h of hubs) await h.kill();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Every path under `dir` whose mode lets anyone but the owner in. */
function open(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (mode(d) !== 0o700) out.push(`${d} ${mode(d).toString(8)}`);
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && mode(full) !== 0o600) out.push(`${full} ${mode(full).toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

attack("another local user cannot read a fresh hub's token, database or journal files", async () => {
  const parent = tempDataDir("modes");
  dirs.push(parent);
  // A data dir the hub creates itself, as on a first `teamhub start`.
  const dir = path.join(parent, "data");
  const hub = await startHub(dir);
  hubs.push(hub);
  expect((await api(hub, "POST", "/api/artifacts", { id: "a", type: "custom", data: {} })).status).toBe(201);
  for (const f of ["operator-token", "hub.json", "teamhub.db", "teamhub.db-wal", "teamhub.db-shm"]) expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
  expect(open(dir)).toEqual([]);
});

attack("a data dir left world-readable is made private again at start", async () => {
  const dir = tempDataDir("loose");
  dirs.push(dir);
  const first = await startHub(dir);
  await first.kill();
  fs.mkdirSync(path.join(dir, "sessions", "7"), { recursive: true });
  fs.writeFileSync(path.join(dir, "sessions", "7", "mcp.json"), "{}");
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), fs.statSync(path.join(dir, f)).isDirectory() ? 0o755 : 0o644);
  fs.chmodSync(path.join(dir, "sessions", "7"), 0o777);
  fs.chmodSync(path.join(dir, "sessions", "7", "mcp.json"), 0o666);
  fs.chmodSync(dir, 0o755);
  const token = fs.readFileSync(path.join(dir, "operator-token"));
  expect(open(dir).length).toBeGreaterThan(3);
  const hub = await startHub(dir);
  hubs.push(hub);
  expect(open(dir)).toEqual([]);
  expect(fs.readFileSync(path.join(dir, "operator-token"))).toEqual(token);
});
