/**
 * Web side (docs/security.md#web-side): a page on a rebinding name (127.attacker.example, 127.0.0.1.nip.io,
 * localhost.evil.com) or a foreign Origin gets nothing through any door — /api, /mcp, /ws, pages —
 * and a hub listening beyond loopback never serves anyone without a token.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dbSnapshot } from "../helpers/db-snapshot.ts";
import { api, startHub, tempDataDir, type HubProcess } from "../helpers/hub-process.ts";
import { attack } from "./attack.ts";
import { INITIALIZE, mcpPost, openSocket } from "../helpers/web-doors.ts";

let hub: HubProcess;
let port: string;
let operatorToken: string;
beforeAll(async () => {
  hub = await startHub();
  port = new URL(hub.url).port;
  operatorToken = fs.readFileSync(path.join(hub.dataDir, "operator-token"), "utf8").trim();
});
afterAll(async () => hub?.kill());

type Door = { name: string; knock: (headers: Record<string, string>) => Promise<{ status: number; text: string }> };

const DOORS: Door[] = [
  {
    name: "GET /api/operator-token",
    knock: async (headers) => {
      const r = await api(hub, "GET", "/api/operator-token", undefined, headers);
      return { status: r.status, text: JSON.stringify(r.body) };
    },
  },
  {
    name: "POST /mcp initialize",
    knock: async (headers) => {
      const r = await mcpPost(hub, INITIALIZE, headers);
      return { status: r.status, text: JSON.stringify(r.rpc) + (r.session ?? "") };
    },
  },
  {
    name: "/ws upgrade",
    knock: async (headers) => {
      const s = openSocket(hub, { headers });
      const r = await s.opened;
      s.socket.terminate();
      return { status: r.status, text: r.body };
    },
  },
  {
    name: "GET / (dashboard page)",
    knock: async (headers) => {
      const r = await api(hub, "GET", "/", undefined, headers);
      return { status: r.status, text: typeof r.body === "string" ? r.body : JSON.stringify(r.body) };
    },
  },
];

const hostile = () => [
  { header: "Host", value: `127.attacker.example:${port}` },
  { header: "Host", value: `127.0.0.1.nip.io:${port}` },
  { header: "Host", value: `localhost.evil.com:${port}` },
  { header: "Origin", value: `http://127.attacker.example:${port}` },
  { header: "Origin", value: `http://127.0.0.1.nip.io:${port}` },
  { header: "Origin", value: "null" },
];
const HOSTILE_COUNT = 6;

it("lets a loopback Host and Origin in (so the refusals below are the guard's doing)", async () => {
  const ok = await api(hub, "GET", "/api/operator-token", undefined, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` });
  expect(ok.status).toBe(200);
  expect(ok.body.token).toBe(operatorToken);
  const s = openSocket(hub, { headers: { origin: `http://[::1]:${port}` } });
  expect((await s.opened).status).toBe(101);
  s.socket.close();
});

for (const door of DOORS) {
  for (let i = 0; i < HOSTILE_COUNT; i++) {
    attack(`${door.name} with hostile header #${i + 1} (rebinding Host / foreign Origin)`, async () => {
      const { header, value } = hostile()[i];
      const headers: Record<string, string> = header === "Host" ? { host: value } : { host: `localhost:${port}`, origin: value };
      const before = dbSnapshot(hub.dbFile);
      const r = await door.knock(headers);
      expect(r.status, `${header}: ${value}`).toBe(403);
      const body = JSON.parse(r.text) as { error: { code: string; details: { field: string } } };
      expect(body.error).toMatchObject({ code: "forbidden", details: { field: header } });
      expect(r.text).not.toContain(operatorToken);
      expect(dbSnapshot(hub.dbFile)).toEqual(before);
    });
  }
}

attack("TEAMHUB_HOST=0.0.0.0 with TEAMHUB_REQUIRE_TOKEN=0: the hub refuses to start, naming both", async () => {
  const dir = tempDataDir("open");
  try {
    const started = startHub(dir, { TEAMHUB_HOST: "0.0.0.0", TEAMHUB_REQUIRE_TOKEN: "0" });
    await expect(started).rejects.toThrow(/TEAMHUB_REQUIRE_TOKEN=0 is refused[^\n]*TEAMHUB_HOST=0\.0\.0\.0/);
    expect(fs.existsSync(path.join(dir, "hub.json"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "operator-token"))).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

attack("TEAMHUB_HOST=:: with TEAMHUB_REQUIRE_TOKEN=0: refused too", async () => {
  const dir = tempDataDir("open6");
  try {
    await expect(startHub(dir, { TEAMHUB_HOST: "::", TEAMHUB_REQUIRE_TOKEN: "0" })).rejects.toThrow(/TEAMHUB_REQUIRE_TOKEN/);
    expect(fs.existsSync(path.join(dir, "hub.json"))).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

attack("a hub on 0.0.0.0 serves no door without a token: /api, /mcp and /ws all answer 401", async () => {
  const dir = tempDataDir("wide");
  const wide = await startHub(dir, { TEAMHUB_HOST: "0.0.0.0" });
  try {
    const before = dbSnapshot(wide.dbFile);
    const token = await api(wide, "GET", "/api/operator-token");
    expect(token.status).toBe(401);
    expect(token.body.error.code).toBe("unauthorized");
    const spawn = await api(wide, "POST", "/api/teams", { id: "owned" });
    expect(spawn.status).toBe(401);
    expect((await mcpPost(wide, INITIALIZE)).status).toBe(401);
    const s = openSocket(wide);
    expect((await s.opened).status).toBe(401);
    expect(dbSnapshot(wide.dbFile)).toEqual(before);
  } finally {
    await wide.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
