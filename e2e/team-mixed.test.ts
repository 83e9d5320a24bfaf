/**
 * A mixed team works the Quick Start chain (docs/cli.md#the-quick-start-chain): a Claude member publishes the schema; a Codex member, woken by its
 * contract, reads the schema over MCP and publishes the API contract; a Claude member completes the tests. Lineage,
 * contracts and costs come out right for both runtimes (docs/runtimes.md).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { CHAIN_OUTPUTS, chainContracts, chainWorker } from "./fake-anthropic/chain.ts";
import { prompt, roundsSincePrompt, type ResponsesRequest } from "./fake-openai/request.ts";
import { startFakeOpenAi, type FakeOpenAi, type Reply } from "./fake-openai/server.ts";
import { codexHubEnv, CODEX_PRICE } from "./helpers/codex.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const TEAM = "mixed";

/** The Codex member: woken for its contract, it starts it, reads the schema it builds on, and publishes the API contract. */
function codexWorker(req: ResponsesRequest): Reply {
  const ready = /It is ready: start it with contract_start\(\{id: "([^"]+)"\}\)/.exec(prompt(req));
  if (!ready) return { text: "api-dev: nothing to do", usage: { input_tokens: 100, output_tokens: 10 } };
  const out = CHAIN_OUTPUTS[ready[1]];
  const steps = [
    ["contract_start", { team: TEAM, id: ready[1] }],
    ["artifact_get", { team: TEAM, id: "schema-user" }],
    ["artifact_publish", { team: TEAM, id: out.artifactId, type: out.type, data: out.data, derivedFrom: out.derivedFrom, contractId: ready[1] }],
  ] as const;
  const usage = { input_tokens: 2000, output_tokens: 100 };
  const round = roundsSincePrompt(req);
  if (round < steps.length) return { call: { name: steps[round][0], namespace: "mcp__teamhub", arguments: JSON.stringify(steps[round][1]) }, usage };
  return { text: "api-dev finished: published api-user", usage };
}

let openai: FakeOpenAi;
let sh: SessionHub;
beforeAll(async () => {
  openai = await startFakeOpenAi(codexWorker);
  const claude = chainWorker(TEAM);
  sh = await startSessionHub(
    directiveModel((req) => claude(req) ?? { text: "nothing to do" }),
    codexHubEnv(openai.url),
  );
});
afterAll(async () => {
  await sh?.close();
  await openai?.close();
});

describe("a team of Claude and Codex members", () => {
  it("works schema → api → tests, each woken by its contract, with lineage and costs for both runtimes", async () => {
    const members = [
      { name: "db-dev", role: "database", runtime: "claude" },
      { name: "api-dev", role: "backend", runtime: "codex" },
      { name: "qa-dev", role: "testing", runtime: "claude" },
    ];
    for (const m of members) {
      const r = await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, ...m });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.runtime).toBe(m.runtime);
    }
    for (const m of members) await waitForSession(sh.hub, m.name, (s) => s.status === "idle");
    for (const c of chainContracts(["db-dev", "api-dev", "qa-dev"]))
      expect((await api(sh.hub, "POST", `/api/contracts?team=${TEAM}`, { title: c.id, ...c })).status).toBe(201);

    await vi.waitFor(
      async () =>
        expect(
          (await api(sh.hub, "GET", `/api/contracts/write-tests?team=${TEAM}`)).body.status,
          `the chain did not complete:\n${sh.hub.log().slice(-3000)}`,
        ).toBe("completed"),
      { timeout: 90_000, interval: 200 },
    );
    for (const id of Object.keys(CHAIN_OUTPUTS)) expect((await api(sh.hub, "GET", `/api/contracts/${id}?team=${TEAM}`)).body.status).toBe("completed");
    for (const m of members) await waitForSession(sh.hub, m.name, (s) => s.status === "idle" && s.queued === 0 && s.running === null);

    // Each published by its member, under its own identity, and the API contract derived from the schema the Codex member read.
    const published = await Promise.all(
      Object.values(CHAIN_OUTPUTS).map(async (o) => (await api(sh.hub, "GET", `/api/artifacts/${o.artifactId}?team=${TEAM}`)).body),
    );
    expect(published.map((v) => [v.publisher, v.sessionId])).toEqual([
      ["db-dev", "db-dev"],
      ["api-dev", "api-dev"],
      ["qa-dev", "qa-dev"],
    ]);
    const read = openai.requests.flatMap((q) => q.input.filter((i: any) => i.type === "function_call_output").map((i: any) => JSON.stringify(i.output)));
    expect(read.some((o) => o.includes("schema-user") && o.includes("email"))).toBe(true);
    const readers = (await api(sh.hub, "GET", `/api/artifacts/schema-user/readers?team=${TEAM}`)).body;
    expect(JSON.stringify(readers)).toContain("api-dev");
    const lineage = (await api(sh.hub, "GET", `/api/lineage?team=${TEAM}&ref=tests-user&depth=5`)).body;
    expect(JSON.stringify(lineage)).toContain("schema-user@v1");

    // Costs: the audit trail charges each artifact to its member's turn; Codex's priced from its tokens.
    const trail = (await api(sh.hub, "GET", `/api/audit?team=${TEAM}&ref=tests-user`)).body.trail;
    expect(trail.map((t: any) => [t.artifactId, t.cost?.session])).toEqual([
      ["tests-user", "qa-dev"],
      ["api-user", "api-dev"],
      ["schema-user", "db-dev"],
    ]);
    for (const t of trail) expect(t.cost.costUsd).toBeGreaterThan(0);
    const [codexTurn] = (await api(sh.hub, "GET", "/api/sessions/api-dev/history")).body.interactions;
    expect(codexTurn).toMatchObject({ status: "completed", inputTokens: 4 * 2000, outputTokens: 4 * 100, turns: 4 });
    expect(codexTurn.costUsd).toBeCloseTo((8000 * CODEX_PRICE.inputUsdPerMTok + 400 * CODEX_PRICE.outputUsdPerMTok) / 1e6, 10);
    const costs = (await api(sh.hub, "GET", `/api/overview?team=${TEAM}`)).body.costs;
    const byRuntime = Object.fromEntries(costs.perRuntime.map((r: any) => [r.runtime, r]));
    expect(byRuntime.codex).toMatchObject({ sessions: 1 });
    expect(byRuntime.codex.costUsd).toBeCloseTo(codexTurn.costUsd, 10);
    expect(byRuntime.claude.sessions).toBe(2);
    expect(byRuntime.claude.costUsd).toBeGreaterThan(0);
  }, 180_000);
});
