/**
 * Capabilities (docs/security.md#capabilities) against a real hub, over HTTP, the CLI and MCP: a member token may not do a
 * team's team-wide or destructive operations, operate others' sessions, issue tokens or read what
 * is not its own; a lead may on its own team only. Each attack asserts the refusal and that the
 * database is unchanged.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { api, bearer as as, cli } from "../helpers/hub-process.ts";
import { dbSnapshot, expectDbUnchanged } from "../helpers/db-snapshot.ts";
import { call, httpClient } from "../helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "../helpers/session-hub.ts";
import { attack } from "./attack.ts";

let sh: SessionHub;
let mallory: string;
let lea: string;
let alice: string;
let mcp: Client;
let approvalId: number;

const token = (name: string) => {
  const r = cli(sh.hub.dataDir, ["token", "create", name, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return r.json().token as string;
};

/** Runs the attack and proves nothing in the database changed. */
const unchanged = (fn: () => Promise<void>): Promise<void> => expectDbUnchanged(sh.hub.dbFile, fn);

/** An HTTP request refused with 403 forbidden naming the operation, and nothing written. */
const refusedOverHttp = (method: string, route: string, body: unknown, operation: string, who = mallory) =>
  unchanged(async () => {
    const r = await api(sh.hub, method, route, body, as(who));
    expect([r.status, r.body.error?.code, r.body.error?.details?.operation], JSON.stringify(r.body)).toEqual([403, "forbidden", operation]);
  });

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  mallory = token("mallory");
  lea = token("lea");
  alice = token("alice");
  const bob = token("bob");
  expect(cli(sh.hub.dataDir, ["lead-grant", "lea", "--team", "t"]).code).toBe(0);
  const op = (method: string, route: string, body?: unknown) => api(sh.hub, method, route, body);
  expect((await op("POST", "/api/contracts?team=t", { id: "c1", title: "Build", assignee: "dev" })).status).toBe(201);
  const done = await op("POST", "/api/contracts/c1/complete?team=t", { force: true, reason: "done by hand" });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect((await op("POST", "/api/snapshots", { team: "t", id: "s1" })).status).toBe(201);
  expect((await op("POST", "/api/snapshots", { team: "u", id: "s2" })).status).toBe(201);
  expect((await op("POST", "/api/sessions", { team: "t", name: "asker", prompt: "@bash touch made-by-asker" })).status).toBe(201);
  expect((await op("POST", "/api/sessions", { team: "t", name: "idle1" })).status).toBe(201);
  const asker = await waitForSession(sh.hub, "asker", (s) => s.status === "waiting_permission" && s.approvals.length === 1, 60_000);
  approvalId = asker.approvals[0].id;
  await waitForSession(sh.hub, "idle1", (s) => s.status === "idle", 60_000);
  expect((await api(sh.hub, "POST", "/api/roster", { team: "t", name: "bob" }, as(bob))).status).toBe(200);
  expect((await api(sh.hub, "POST", "/api/chat/send?team=t", { to: "bob", message: "alice to bob, private" }, as(alice))).status).toBe(200);
  mcp = await httpClient(sh.hub.url, mallory);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await sh?.close();
});

describe("a member token over HTTP: team-wide and destructive operations", () => {
  attack("POST /api/teams/t/reset", () => refusedOverHttp("POST", "/api/teams/t/reset", { confirm: true }, "team.reset"));
  attack("POST /api/snapshots/s1/rollback", () => refusedOverHttp("POST", "/api/snapshots/s1/rollback?team=t", {}, "snapshot.rollback"));
  attack("POST /api/snapshots/s1/replay", () => refusedOverHttp("POST", "/api/snapshots/s1/replay?team=t", { overrides: {} }, "snapshot.replay"));
  attack("POST /api/snapshots/s1/rollback/preview", () => refusedOverHttp("POST", "/api/snapshots/s1/rollback/preview?team=t", {}, "snapshot.rollback"));
  attack("POST /api/snapshots/s1/replay/preview", () =>
    refusedOverHttp("POST", "/api/snapshots/s1/replay/preview?team=t", { overrides: {} }, "snapshot.replay"),
  );
  attack("DELETE /api/snapshots/s1", () => refusedOverHttp("DELETE", "/api/snapshots/s1?team=t", undefined, "snapshot.delete"));
  attack("POST /api/teams/t/archive", () => refusedOverHttp("POST", "/api/teams/t/archive", {}, "team.archive"));
  attack("POST /api/cleanup for the whole hub", () => refusedOverHttp("POST", "/api/cleanup", { days: 0 }, "sessions.cleanup"));
  attack("POST /api/cleanup for team t", () => refusedOverHttp("POST", "/api/cleanup", { days: 0, team: "t" }, "sessions.cleanup"));
  attack("PATCH /api/teams/t/settings to widen maxPreset", () => refusedOverHttp("PATCH", "/api/teams/t/settings", { maxPreset: "full" }, "team.settings"));
  attack("POST /api/tokens to mint another identity", () => refusedOverHttp("POST", "/api/tokens", { name: "evil" }, "tokens.issue"));
  attack("DELETE /api/tokens/alice", () => refusedOverHttp("DELETE", "/api/tokens/alice", undefined, "tokens.revoke"));
  attack("GET /api/tokens", () => refusedOverHttp("GET", "/api/tokens", undefined, "tokens.list"));
  attack("GET /api/operator-token", () => refusedOverHttp("GET", "/api/operator-token", undefined, "tokens.read_operator"));
  attack("POST /api/teams/t/leads to make itself a lead", () => refusedOverHttp("POST", "/api/teams/t/leads", { name: "mallory" }, "leads.grant"));
  attack("DELETE /api/teams/t/leads/lea", () => refusedOverHttp("DELETE", "/api/teams/t/leads/lea", undefined, "leads.revoke"));
  attack("POST an approval decision", () => refusedOverHttp("POST", `/api/sessions/asker/approvals/${approvalId}`, { decision: "allow" }, "approval.decide"));
  attack("POST a bulk approval decision from the queue", () =>
    refusedOverHttp("POST", "/api/approvals/decide", { team: "t", ids: [approvalId], decision: "allow" }, "approval.decide"),
  );
});

describe("a member token over HTTP: another's sessions", () => {
  attack("DELETE /api/sessions/idle1", () => refusedOverHttp("DELETE", "/api/sessions/idle1", undefined, "session.delete"));
  attack("POST /api/sessions/idle1/kill", () => refusedOverHttp("POST", "/api/sessions/idle1/kill", {}, "session.kill"));
  attack("POST /api/sessions/idle1/stop", () => refusedOverHttp("POST", "/api/sessions/idle1/stop", {}, "session.stop"));
  attack("POST /api/sessions/idle1/send a turn to a session it does not own", () =>
    refusedOverHttp("POST", "/api/sessions/idle1/send", { message: "@bash touch pwned" }, "session.send"),
  );
  attack("POST /api/sessions/idle1/fork to copy its settings and conversation", () =>
    refusedOverHttp("POST", "/api/sessions/idle1/fork", { newName: "copy" }, "session.fork"),
  );
  attack("GET /api/sessions/asker/transcript", () => refusedOverHttp("GET", "/api/sessions/asker/transcript", undefined, "session.read"));
  attack("GET /api/sessions/asker/output", () => refusedOverHttp("GET", "/api/sessions/asker/output", undefined, "session.read"));
});

describe("a member token over HTTP: reads", () => {
  attack("GET /api/events?type=message.sent shows no one else's DMs", () =>
    unchanged(async () => {
      const r = await api(sh.hub, "GET", "/api/events?team=t&type=message.sent", undefined, as(mallory));
      expect(r.status).toBe(200);
      expect(r.body.events).toEqual([]);
      // The same query as the sender shows it: the filter is per principal, not a missing event.
      expect((await api(sh.hub, "GET", "/api/events?team=t&type=message.sent", undefined, as(alice))).body.events).toHaveLength(1);
    }),
  );
  attack("a pipeline dry run reads no one else's DM, and the past events it offers leave them out", () =>
    unchanged(async () => {
      const dm = (await api(sh.hub, "GET", "/api/events?team=t&type=message.sent", undefined, as(alice))).body.events[0];
      const rule = { trigger: { type: "message_received" }, action: { type: "broadcast", message: "${message.text}" } };
      const r = await api(sh.hub, "POST", "/api/pipelines/dry-run", { team: "t", rule, eventId: dm.id }, as(mallory));
      expect([r.status, r.body.error?.code, r.body.error?.details?.field]).toEqual([404, "not_found", "eventId"]);
      expect(JSON.stringify(r.body)).not.toContain("private");
      const offered = await api(sh.hub, "POST", "/api/pipelines/dry-run/events", { team: "t", trigger: rule.trigger }, as(mallory));
      expect([offered.status, offered.body.events]).toEqual([200, []]);
      // The sender sees it in both: the filter is per principal, not a missing event.
      expect((await api(sh.hub, "POST", "/api/pipelines/dry-run", { team: "t", rule, eventId: dm.id }, as(alice))).body.action.message).toBe(
        "alice to bob, private",
      );
    }),
  );
  attack("GET /api/events?hub=true (tokens issued)", () => refusedOverHttp("GET", "/api/events?hub=true", undefined, "events.hub"));
  attack("GET /api/approvals and /api/events show no approval inputs", () =>
    unchanged(async () => {
      const approvals = (await api(sh.hub, "GET", "/api/approvals?team=t", undefined, as(mallory))).body;
      expect(approvals.map((a: { input: unknown; inputHidden: boolean }) => [a.input, a.inputHidden])).toEqual([[{}, true]]);
      const events = (await api(sh.hub, "GET", "/api/events?team=t&type=session.approval_requested", undefined, as(mallory))).body.events;
      expect(events.map((e: { payload: Record<string, unknown> }) => [e.payload.input, e.payload.inputHidden])).toEqual([[undefined, true]]);
      expect(JSON.stringify((await api(sh.hub, "GET", "/api/overview?team=t", undefined, as(mallory))).body)).not.toContain("made-by-asker");
      expect(JSON.stringify((await api(sh.hub, "GET", "/api/sessions/asker", undefined, as(mallory))).body)).not.toContain("made-by-asker");
    }),
  );
});

describe("a member token over the CLI and MCP", () => {
  const asMallory = (args: string[]) => cli(sh.hub.dataDir, args, { TEAMHUB_TOKEN: mallory });
  const refusedOverCli = (args: string[]) =>
    unchanged(async () => {
      const r = asMallory(args);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/^teamhub: forbidden: 'mallory' \(member\) may not /)]);
    });
  const refusedOverMcp = (tool: string, args: Record<string, unknown>) =>
    unchanged(async () => {
      const r = await call(mcp, tool, args);
      expect([r.isError, r.text]).toEqual([true, expect.stringMatching(/^forbidden: 'mallory' \(member\) may not /)]);
    });
  attack("teamhub team-reset --team t", () => refusedOverCli(["team-reset", "--confirm", "--team", "t"]));
  attack("teamhub team-rollback s1 --team t", () => refusedOverCli(["team-rollback", "s1", "--team", "t"]));
  attack("teamhub lead-grant mallory --team t", () => refusedOverCli(["lead-grant", "mallory", "--team", "t"]));
  attack("teamhub delete idle1", () => refusedOverCli(["delete", "idle1"]));
  attack("teamhub events --type message.sent", () =>
    unchanged(async () => {
      const r = asMallory(["events", "--team", "t", "--type", "message.sent", "--json"]);
      expect([r.code, r.json().events]).toEqual([0, []]);
    }),
  );
  attack("MCP team_reset", () => refusedOverMcp("team_reset", { team: "t", confirm: true }));
  attack("MCP team_rollback", () => refusedOverMcp("team_rollback", { team: "t", id: "s1" }));
  attack("MCP team_snapshot_delete", () => refusedOverMcp("team_snapshot_delete", { team: "t", id: "s1" }));
  attack("MCP kill_session of another's session", () => refusedOverMcp("kill_session", { name: "idle1" }));
  attack("MCP delete_session of another's session", () => refusedOverMcp("delete_session", { name: "idle1" }));
  attack("MCP get_last_output of another's session", () => refusedOverMcp("get_last_output", { name: "asker" }));
  attack("MCP team_events shows no one else's DMs", () =>
    unchanged(async () => {
      expect((await call(mcp, "team_events", { team: "t", type: "message.sent" })).json().events).toEqual([]);
    }),
  );
});

describe("a member's pipeline acts with its creator's authority", () => {
  attack("a pipeline reopening a contract its creator may not touch fails at execution; the contract is unchanged", async () => {
    const contract = () => dbSnapshot(sh.hub.dbFile).Contract;
    const before = contract();
    const created = await api(
      sh.hub,
      "POST",
      "/api/pipelines",
      {
        team: "t",
        id: "sneaky",
        rules: [{ trigger: { type: "artifact_published" }, action: { type: "reopen_contract", contractId: "c1", reason: "pwned" } }],
      },
      as(mallory),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api(sh.hub, "POST", "/api/artifacts?team=t", { id: "bait", type: "custom", data: { x: 1 } }, as(mallory))).status).toBe(201);
    const log = await vi.waitFor(
      async () => {
        const entries = (await api(sh.hub, "GET", "/api/pipelines/sneaky?team=t", undefined, as(mallory))).body.log as Array<{
          outcome: string;
          error: string | null;
        }>;
        if (entries.length === 0) throw new Error("the pipeline has not run");
        return entries;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(log.map((x) => [x.outcome, x.error])).toEqual([["failed", expect.stringContaining("'mallory' (member) may not reopen contract 'c1'")]]);
    expect(contract()).toEqual(before);
  });
});

describe("a lead", () => {
  attack("of team t may not reset, roll back or change the settings of team u", async () => {
    await refusedOverHttp("POST", "/api/teams/u/reset", { confirm: true }, "team.reset", lea);
    await refusedOverHttp("POST", "/api/snapshots/s2/rollback?team=u", {}, "snapshot.rollback", lea);
    await refusedOverHttp("PATCH", "/api/teams/u/settings", { maxPreset: "full" }, "team.settings", lea);
    await refusedOverHttp("POST", "/api/tokens", { name: "evil" }, "tokens.issue", lea);
  });

  it("does the team-wide operations of its own team", async () => {
    expect((await api(sh.hub, "PATCH", "/api/teams/t/settings", { wake: "off" }, as(lea))).body).toMatchObject({ wake: "off" });
    const decided = await api(sh.hub, "POST", `/api/sessions/asker/approvals/${approvalId}`, { decision: "deny" }, as(lea));
    expect(decided.body).toMatchObject({ status: "denied", decidedBy: "lea" });
    expect((await api(sh.hub, "GET", "/api/sessions/asker/transcript", undefined, as(lea))).status).toBe(200);
    expect((await api(sh.hub, "POST", "/api/snapshots/s1/rollback?team=t", {}, as(lea))).status).toBe(200);
    expect((await api(sh.hub, "POST", "/api/teams/t/reset", { confirm: true }, as(lea))).body).toMatchObject({ team: "t" });
    expect((await api(sh.hub, "GET", "/api/teams/t/leads")).body.map((l: { principal: string }) => l.principal)).toEqual(["lea"]);
  }, 60_000);
});
