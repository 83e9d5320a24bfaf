/**
 * Team knowledge with real sessions (docs/knowledge.md): three team_spawned `claude` members work a chain of contracts
 * one after the other; each looks its research angle up in the exploration cache, publishes its output and posts a
 * state update pointing at it. The next member's start-up prompt and briefing carry the merged state and the upstream
 * ref, and the second member's lookup of the angle the first explored is a hit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { mcp, memberOf } from "./fake-anthropic/members.ts";
import { prompt, toolResults, type MessagesRequest } from "./fake-anthropic/request.ts";
import type { Reply } from "./fake-anthropic/server.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const TEAM = "know";
const ANGLE = "Auth token storage";

type Step = { contract: string; role: string; output: string; derivedFrom: string[]; finding: string };
const MEMBERS: Record<string, Step> = {
  analyst: { contract: "research-auth", role: "research", output: "auth-research", derivedFrom: [], finding: "httpOnly cookies beat localStorage" },
  builder: { contract: "build-auth", role: "backend", output: "auth-api", derivedFrom: ["auth-research@v1"], finding: "refresh rotates on every use" },
  reviewer: { contract: "review-auth", role: "review", output: "auth-review", derivedFrom: ["auth-api@v1"], finding: "no blocking issues" },
};

/**
 * A member woken for its ready contract: start it, look the angle up (recording it on a miss), publish its output,
 * post a state update pointing at it, and say so.
 */
function member(req: MessagesRequest): Reply | undefined {
  const name = memberOf(req);
  const step = name ? MEMBERS[name] : undefined;
  if (!name || !step) return undefined;
  const results = toolResults(req);
  const last = results.at(-1);
  if (!last)
    return /It is ready: start it with contract_start/.test(prompt(req))
      ? mcp("contract_start", { team: TEAM, id: step.contract })
      : { text: `${name}: noted` };
  if (last.isError) return { text: `${name} failed: ${last.name} ${last.text}` };
  switch (last.name.replace("mcp__teamhub__", "")) {
    case "contract_start":
      return mcp("exploration_lookup", { team: TEAM, angle: ANGLE });
    case "exploration_lookup":
      if (/"hit":\s*false/.test(last.text)) return mcp("exploration_record", { team: TEAM, angle: ANGLE, result: `${name}: store tokens in httpOnly cookies` });
      return publish(step);
    case "exploration_record":
      return publish(step);
    case "artifact_publish":
      return mcp("team_state_update", {
        team: TEAM,
        status: "completed",
        task: step.contract,
        ref: `${step.output}@v1`,
        keyFindings: [step.finding],
        decisions: [{ decision: `${name} went with cookies`, rationale: "the cache said so" }],
        verification: "tested",
      });
    default:
      return { text: `${name} finished` };
  }
}

const publish = (step: Step) =>
  mcp("artifact_publish", { team: TEAM, id: step.output, type: "custom", data: { by: step.role }, derivedFrom: step.derivedFrom, contractId: step.contract });

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel(member))));
afterAll(async () => sh?.close());

const systemOf = (name: string) => {
  const req = sh.fake.requests.find((r) => memberOf(r) === name);
  return req ? JSON.stringify(req.system) : "";
};
const stateOf = async () =>
  (await api(sh.hub, "GET", `/api/knowledge/state?team=${TEAM}`)).body as { members: Array<{ member: string; latest: { ref: unknown } }> };

async function staff(name: string, dependsOn: string | null, inputs: Record<string, string>) {
  const spawned = await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name, role: MEMBERS[name].role });
  expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
  await waitForSession(sh.hub, name, (s) => s.status === "idle");
  const created = await api(sh.hub, "POST", `/api/contracts?team=${TEAM}`, {
    id: MEMBERS[name].contract,
    title: MEMBERS[name].contract,
    assignee: name,
    inputs,
    dependencies: dependsOn ? [{ type: "contract", contractId: dependsOn }] : [],
    expectedOutputs: [{ artifactType: "custom" }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await vi.waitFor(
    async () =>
      expect(
        (await stateOf()).members.map((m) => m.member),
        `no state update from ${name}:\n${sh.hub.log().slice(-3000)}`,
      ).toContain(name),
    { timeout: 90_000, interval: 200 },
  );
}

describe("team knowledge between real members", () => {
  it("hands the merged state, the upstream ref and the cached exploration to the next member", async () => {
    expect((await api(sh.hub, "POST", "/api/teams", { id: TEAM })).status).toBe(201);
    expect((await api(sh.hub, "PATCH", `/api/teams/${TEAM}/settings`, { gateEnforcement: "off" })).status).toBe(200);

    await staff("analyst", null, { context: "research auth token storage" });
    await staff("builder", "research-auth", { angle: ANGLE });

    // The builder started knowing the analyst's state, ref and findings…
    const builderPrompt = systemOf("builder");
    expect(builderPrompt).toContain("Team state (1 members");
    expect(builderPrompt).toContain("analyst (research): completed, tested — research-auth; ref auth-research@v1");
    expect(builderPrompt).toContain("finding: httpOnly cookies beat localStorage");
    // …and its lookup of the angle the analyst explored was a hit, not a miss.
    const lookups = sh.fake.requests
      .flatMap((r) => toolResults(r).map((t) => ({ member: memberOf(r), ...t })))
      .filter((t) => t.name === "mcp__teamhub__exploration_lookup");
    expect(lookups.find((l) => l.member === "analyst")?.text).toMatch(/"hit":\s*false/);
    const hit = lookups.find((l) => l.member === "builder")?.text ?? "";
    expect(hit).toMatch(/"hit":\s*true/);
    expect(hit).toContain("analyst: store tokens in httpOnly cookies");
    expect(hit).toMatch(/"createdBy":\s*"analyst"/);

    // The reviewer's briefing carries both upstream states and refs before it starts.
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name: "reviewer", role: "review" })).status).toBe(201);
    await waitForSession(sh.hub, "reviewer", (s) => s.status === "idle");
    const briefing = (await api(sh.hub, "GET", `/api/continuity/briefing?team=${TEAM}&member=reviewer`)).body;
    expect(briefing.teamState.map((m: { member: string; latest: { ref: unknown } }) => [m.member, m.latest.ref])).toEqual([
      ["analyst", { artifactId: "auth-research", version: 1 }],
      ["builder", { artifactId: "auth-api", version: 1 }],
    ]);
    expect(briefing.markdown).toContain("ref auth-api@v1");

    const created = await api(sh.hub, "POST", `/api/contracts?team=${TEAM}`, {
      id: "review-auth",
      title: "review-auth",
      assignee: "reviewer",
      inputs: { focus: ANGLE },
      dependencies: [{ type: "contract", contractId: "build-auth" }],
      expectedOutputs: [{ artifactType: "custom" }],
    });
    expect(created.status).toBe(201);
    await vi.waitFor(async () => expect((await stateOf()).members.map((m) => m.member)).toEqual(["analyst", "builder", "reviewer"]), {
      timeout: 90_000,
      interval: 200,
    });
    // The reviewer's first request, woken by its contract, carries the start-up prompt it was spawned with.
    const reviewerPrompt = systemOf("reviewer");
    expect(reviewerPrompt).toContain("ref auth-research@v1");
    expect(reviewerPrompt).toContain("builder (backend): completed, tested — build-auth; ref auth-api@v1");
    const explorations = (await api(sh.hub, "GET", `/api/knowledge/explorations?team=${TEAM}`)).body;
    expect(explorations.items.map((e: { angle: string; createdBy: string; revision: number }) => [e.angle, e.createdBy, e.revision])).toEqual([
      ["auth-token-storage", "analyst", 1],
    ]);
  }, 300_000);
});
