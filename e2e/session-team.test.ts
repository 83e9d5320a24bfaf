/**
 * Teams of real sessions: a linear chain (three contracts worked by three
 * team_spawned members, each woken by the notice that its contract is ready and publishing through MCP),
 * and team_ask/team_reply between two live sessions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BATCH_GAP_MS } from "../server/domain/gate/spawn-batches.ts";
import type { Reply } from "./fake-anthropic/server.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { mcp, memberOf } from "./fake-anthropic/members.ts";
import { CHAIN_OUTPUTS, chainContracts, chainWorker } from "./fake-anthropic/chain.ts";
import { prompt, toolResults, type MessagesRequest } from "./fake-anthropic/request.ts";
import { query } from "./helpers/db-snapshot.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const OUTPUTS = CHAIN_OUTPUTS;
const chain = chainWorker("p1");

/** A worker: woken for a ready contract, it starts it, publishes its output, and says so; asked, it replies. */
function worker(req: MessagesRequest): Reply | undefined {
  const member = memberOf(req);
  if (!member) return undefined;
  const asked = toolResults(req).length === 0 && /(\S+) asks you \(reply with team_reply, messageId (\d+)\)/.exec(prompt(req));
  if (asked) return mcp("team_reply", { team: "chat", messageId: Number(asked[2]), message: `${member} says: the port is 8080` });
  return chain(req) ?? { text: `${member}: nothing to do` };
}

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel(worker))));
afterAll(async () => sh?.close());

describe("a linear chain worked by woken members", () => {
  it("completes schema → api → tests with no operator action after setup", async () => {
    for (const [name, role] of [
      ["db-dev", "database"],
      ["api-dev", "backend"],
      ["qa-dev", "testing"],
    ]) {
      const r = await api(sh.hub, "POST", "/api/team-spawn", { team: "p1", name, role });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    for (const name of ["db-dev", "api-dev", "qa-dev"]) await waitForSession(sh.hub, name, (s) => s.status === "idle");
    const contracts = chainContracts(["db-dev", "api-dev", "qa-dev"]);
    for (const c of contracts) expect((await api(sh.hub, "POST", "/api/contracts?team=p1", { title: c.id, ...c })).status).toBe(201);

    await vi.waitFor(
      async () =>
        expect((await api(sh.hub, "GET", "/api/contracts/write-tests?team=p1")).body.status, `the chain did not complete:\n${sh.hub.log().slice(-3000)}`).toBe(
          "completed",
        ),
      { timeout: 90_000, interval: 200 },
    );
    for (const c of contracts) expect((await api(sh.hub, "GET", `/api/contracts/${c.id}?team=p1`)).body.status).toBe("completed");
    const published = await Promise.all(Object.values(OUTPUTS).map(async (o) => (await api(sh.hub, "GET", `/api/artifacts/${o.artifactId}?team=p1`)).body));
    expect(published.map((v) => [v.publisher, v.sessionId])).toEqual([
      ["db-dev", "db-dev"],
      ["api-dev", "api-dev"],
      ["qa-dev", "qa-dev"],
    ]);
    // A contract completes when its output is published, mid-turn; the turn's cost arrives with its result.
    for (const name of ["db-dev", "api-dev", "qa-dev"]) await waitForSession(sh.hub, name, (s) => s.status === "idle" && s.queued === 0 && s.running === null);
    const trail = (await api(sh.hub, "GET", "/api/audit?team=p1&ref=tests-user")).body.trail;
    expect(trail.map((t: any) => [t.artifactId, t.cost?.session, t.cost?.interaction])).toEqual([
      ["tests-user", "qa-dev", 1],
      ["api-user", "api-dev", 1],
      ["schema-user", "db-dev", 1],
    ]);
    for (const t of trail) expect(t.cost.costUsd).toBeGreaterThan(0);

    const events = (await api(sh.hub, "GET", "/api/events?team=p1&limit=500")).body.events.reverse();
    const sequence = events
      .filter(
        (e: any) =>
          (e.type === "contract.status_changed" && ["ready", "completed"].includes(e.payload.to)) ||
          e.type === "artifact.published" ||
          e.type === "session.turn_started",
      )
      .map((e: any) =>
        e.type === "contract.status_changed"
          ? `${e.payload.id}:${e.payload.to}`
          : e.type === "artifact.published"
            ? `published:${e.payload.artifactId}`
            : `turn:${e.payload.name}`,
      );
    expect(sequence).toEqual([
      "setup-schema:ready",
      "turn:db-dev",
      "published:schema-user",
      "setup-schema:completed",
      "build-api:ready",
      "turn:api-dev",
      "published:api-user",
      "build-api:completed",
      "write-tests:ready",
      "turn:qa-dev",
      "published:tests-user",
      "write-tests:completed",
    ]);
    const roster = (await api(sh.hub, "GET", "/api/roster?team=p1")).body;
    expect(roster.map((m: any) => [m.name, m.role, m.sessionId])).toEqual([
      ["api-dev", "backend", "api-dev"],
      ["db-dev", "database", "db-dev"],
      ["qa-dev", "testing", "qa-dev"],
    ]);
  }, 180_000);

  it("refuses a second spawn batch without a passing phase gate, with an example call", async () => {
    // A spawn more than BATCH_GAP_MS after the team's last one starts a new batch; the chain above usually took longer.
    const [{ lastSpawnAt }] = query<{ lastSpawnAt: string }>(sh.hub.dbFile, `SELECT "lastSpawnAt" FROM "GateState" WHERE "teamId" = 'p1'`);
    await vi.waitFor(() => expect(Date.now() - Date.parse(lastSpawnAt)).toBeGreaterThan(BATCH_GAP_MS), { timeout: BATCH_GAP_MS + 1000, interval: 100 });
    const r = await api(sh.hub, "POST", "/api/team-spawn", { team: "p1", name: "late-dev" });
    expect(r.status).toBe(412);
    expect(r.body.error.message).toContain("phase_gate(");
  }, 20_000);
});

describe("team chat between live sessions", () => {
  it("team_ask returns the other session's team_reply to the asker's tool call", async () => {
    for (const name of ["alice", "bob"]) await api(sh.hub, "POST", "/api/team-spawn", { team: "chat", name });
    for (const name of ["alice", "bob"]) await waitForSession(sh.hub, name, (s) => s.status === "idle");
    const r = await api(sh.hub, "POST", "/api/sessions/alice/send", {
      wait: true,
      message: `@mcp team_ask {"team":"chat","to":"bob","question":"which port?","timeoutSeconds":60}`,
    });
    expect(r.body.interaction.status).toBe("completed");
    expect(r.body.interaction.response).toContain("bob says: the port is 8080");
    expect(r.body.interaction.response).toMatch(/"answered":\s*true/);
    const bob = (await api(sh.hub, "GET", "/api/sessions/bob/history")).body.interactions;
    expect(bob[bob.length - 1].prompt).toContain("alice asks you");
  }, 120_000);
});
