/**
 * Spawning within authority (docs/security.md#capabilities) against real hubs: a member token over HTTP, MCP and the CLI,
 * and a supervised session through the real `claude` (fake Messages API) calling the hub's MCP
 * tools as itself. Each attack is refused and writes no session (nor anything else it aimed at).
 */
import fs from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { api, bearer as as, cli } from "../helpers/hub-process.ts";
import { expectDbUnchanged, type DbSnapshot } from "../helpers/db-snapshot.ts";
import { call, httpClient } from "../helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "../helpers/session-hub.ts";
import { attack } from "./attack.ts";

let sh: SessionHub;
let bare: SessionHub;
let mallory: string;
let mcp: Client;

/** The tables a spawn (or a reset) would change; a session's own turn legitimately changes the others. */
const GUARDED = ["Session", "Contract", "Artifact", "ArtifactVersion", "Pipeline", "Member", "Snapshot", "Token", "Principal", "TeamGrant", "Team", "Message"];
function guarded(all: DbSnapshot, exceptSession?: string) {
  const rows = Object.fromEntries(GUARDED.map((t) => [t, all[t]]));
  // The acting session's own row moves (status, cost) while it works; every other row must not.
  rows.Session = (all.Session as Array<{ name: string }>).filter((s) => s.name !== exceptSession);
  return rows;
}
const unchanged = (hub: SessionHub, fn: () => Promise<void>, exceptSession?: string): Promise<void> =>
  expectDbUnchanged(hub.hub.dbFile, fn, (all) => guarded(all, exceptSession));

/** A spawn request refused with 403 naming the field and rule, and no row written. */
const refusedSpawn = (route: string, body: unknown, field: string, rule: string, token: string | null = mallory, hub = () => sh) =>
  unchanged(hub(), async () => {
    const r = await api(hub().hub, "POST", route, body, token ? as(token) : {});
    expect([r.status, r.body.error?.details?.field, r.body.error?.details?.rule], JSON.stringify(r.body)).toEqual([403, field, rule]);
  });

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  const r = cli(sh.hub.dataDir, ["token", "create", "mallory", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  mallory = r.json().token;
  expect(cli(sh.hub.dataDir, ["token", "create", "victim"]).code).toBe(0);
  fs.symlinkSync("/", path.join(sh.work, "escape"));
  mcp = await httpClient(sh.hub.url, mallory);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await sh?.close();
  await bare?.close();
});

describe("a member token spawning", () => {
  attack("preset full", () => refusedSpawn("/api/sessions", { name: "x", preset: "full" }, "preset", "max_preset"));
  attack("safety off", () => refusedSpawn("/api/sessions", { name: "x", safety: { enabled: false } }, "safety.enabled", "safety_on"));
  attack("workDir /", () => refusedSpawn("/api/sessions", { name: "x", workDir: "/" }, "workDir", "inside_root"));
  attack("workDir escaping the team root through a symlink", () =>
    refusedSpawn("/api/sessions", { name: "x", workDir: path.join(sh.work, "escape") }, "workDir", "inside_root"),
  );
  attack("workDir escaping the team root through ..", () => refusedSpawn("/api/sessions", { name: "x", workDir: `${sh.work}/..` }, "workDir", "inside_root"));
  attack("a budget above the team's limit", () => refusedSpawn("/api/sessions", { name: "x", safety: { maxCostUsd: 500 } }, "safety.maxCostUsd", "team_limit"));
  attack("maxBudgetUsd above the team's limit", () => refusedSpawn("/api/sessions", { name: "x", maxBudgetUsd: 500 }, "maxBudgetUsd", "team_limit"));
  attack("allowedTools that widen the preset", () => refusedSpawn("/api/sessions", { name: "x", allowedTools: ["Bash"] }, "allowedTools", "max_preset"));
  attack("a batch with one full entry starts none", () =>
    refusedSpawn("/api/batch-spawn", { sessions: [{ name: "ok" }, { name: "x", preset: "full" }] }, "preset", "max_preset"),
  );
  attack("delegate with the safety net off", () => refusedSpawn("/api/delegate", { name: "x", task: "t", safety: false }, "safety.enabled", "safety_on"));
  attack("team_spawn with preset full", () => refusedSpawn("/api/team-spawn", { name: "x", preset: "full" }, "preset", "max_preset"));
  attack("team_spawn named after another member, to act as it", () => refusedSpawn("/api/team-spawn", { name: "victim" }, "name", "not_a_principal"));
  attack("MCP spawn_session with preset full, safety off and workDir /", () =>
    unchanged(sh, async () => {
      const r = await call(mcp, "spawn_session", { name: "x", preset: "full", safety: { enabled: false }, workDir: "/" });
      expect([r.isError, r.text]).toEqual([true, expect.stringMatching(/^forbidden: preset: 'full' is wider than team 'default' lets members spawn/)]);
    }),
  );
  attack("teamhub spawn --preset full --work-dir /", () =>
    unchanged(sh, async () => {
      const r = cli(sh.hub.dataDir, ["spawn", "x", "--preset", "full", "--work-dir", "/"], { TEAMHUB_TOKEN: mallory });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining("forbidden: preset: 'full' is wider")]);
    }),
  );

  it("spawns within the team's limits, recorded as spawnedBy and shown in the session view", async () => {
    const r = await api(sh.hub, "POST", "/api/sessions", { name: "mallorys", preset: "review" }, as(mallory));
    expect([r.status, r.body.spawnedBy, r.body.workDir]).toEqual([201, "mallory", fs.realpathSync(sh.work)]);
    expect((await api(sh.hub, "GET", "/api/sessions/mallorys")).body.spawnedBy).toBe("mallory");
    expect((await api(sh.hub, "DELETE", "/api/sessions/mallorys", undefined, as(mallory))).status).toBe(200);
  }, 60_000);
});

describe("a supervised session spawning through the real claude", () => {
  const turn = async (message: string) => {
    const r = await api(sh.hub, "POST", "/api/sessions/parent/send", { wait: true, message });
    expect(r.body.interaction?.status, JSON.stringify(r.body)).toBe("completed");
    return r.body.interaction.response as string;
  };

  beforeAll(async () => {
    expect((await api(sh.hub, "POST", "/api/contracts", { id: "keep", title: "Keep me", assignee: "dev" })).status).toBe(201);
    expect((await api(sh.hub, "POST", "/api/sessions", { name: "parent", preset: "edit", safety: { maxCostUsd: 1 } })).status).toBe(201);
    expect((await api(sh.hub, "POST", "/api/sessions", { name: "bystander" })).status).toBe(201);
    await waitForSession(sh.hub, "parent", (s) => s.status === "idle", 60_000);
    await waitForSession(sh.hub, "bystander", (s) => s.status === "idle", 60_000);
  }, 120_000);

  attack(
    "@mcp spawn_session with preset full, safety off and workDir / from an edit session",
    () =>
      unchanged(
        sh,
        async () => {
          const out = await turn(`@mcp spawn_session {"name":"x","preset":"full","safety":{"enabled":false},"workDir":"/"}`);
          expect(out).toContain("mcp__teamhub__spawn_session ERROR: forbidden: preset: 'full' is wider than your own preset 'edit'");
        },
        "parent",
      ),
    120_000,
  );
  attack(
    "@mcp spawn_session with workDir / (preset within its own)",
    () =>
      unchanged(
        sh,
        async () => {
          expect(await turn(`@mcp spawn_session {"name":"x","workDir":"/"}`)).toMatch(/ERROR: forbidden: workDir: '\/' is outside your own work dir/);
        },
        "parent",
      ),
    120_000,
  );
  attack(
    "@mcp delegate_task with more budget than it has left",
    () =>
      unchanged(
        sh,
        async () => {
          const out = await turn(`@mcp delegate_task {"name":"x","task":"t","maxCost":50}`);
          expect(out).toMatch(/ERROR: forbidden: safety\.maxCostUsd: 50 is more than your remaining budget/);
        },
        "parent",
      ),
    120_000,
  );
  attack(
    "@mcp team_reset from a session",
    () =>
      unchanged(
        sh,
        async () => {
          expect(await turn(`@mcp team_reset {"confirm":true}`)).toContain("ERROR: forbidden: 'parent' (agent) may not reset the team");
        },
        "parent",
      ),
    120_000,
  );
  attack(
    "@mcp kill_session of a session it did not spawn",
    () =>
      unchanged(
        sh,
        async () => {
          expect(await turn(`@mcp kill_session {"name":"bystander"}`)).toContain("ERROR: forbidden: 'parent' (agent) may not kill session 'bystander'");
          expect((await api(sh.hub, "GET", "/api/sessions/bystander")).body.status).toBe("idle");
        },
        "parent",
      ),
    120_000,
  );

  it("spawns a narrower child of its own, recorded with spawnedBy and its limits", async () => {
    expect(await turn(`@mcp spawn_session {"name":"child","preset":"read-only"}`)).not.toContain("ERROR");
    const child = (await api(sh.hub, "GET", "/api/sessions/child")).body;
    expect(child).toMatchObject({ spawnedBy: "parent", preset: "read-only", workDir: fs.realpathSync(sh.work), safety: { enabled: true } });
    expect(child.safety.maxCostUsd).toBeLessThanOrEqual(1);
    expect((await api(sh.hub, "DELETE", "/api/sessions/child")).status).toBe(200);
  }, 120_000);
});

describe("a hub where sessions cannot be sandboxed", () => {
  beforeAll(async () => {
    bare = await startSessionHub(directiveModel(), { TEAMHUB_SANDBOX: "off" });
  }, 180_000);
  attack("the operator spawning preset full", () => refusedSpawn("/api/sessions", { name: "x", preset: "full" }, "preset", "sandbox", null, () => bare));
  attack("the operator switching the safety net off", () =>
    refusedSpawn("/api/sessions", { name: "x", safety: { enabled: false } }, "safety.enabled", "sandbox", null, () => bare),
  );
  attack("the operator delegating with safety off", () =>
    refusedSpawn("/api/delegate", { name: "x", task: "t", safety: false }, "safety.enabled", "sandbox", null, () => bare),
  );
});
