/**
 * Assignees are told (docs/notices.md) in a running hub: qa-dev, a
 * team member running the real `claude` CLI, creates a contract for api-dev through its own MCP
 * token, and a pipeline qa-dev made reopens api-dev's contract when tests fail. api-dev has no
 * live session and reads both in its inbox through the `teamhub` CLI, as itself; the operator feed
 * has the creation. A live member is woken once for a transaction that readied two of its contracts.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api, cli, type CliResult } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
const tokens: Record<string, string> = {};

const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r;
};
/** The `teamhub` CLI as the operator, or as a member with its own token. */
const run = (...args: string[]) => ok(cli(sh.hub.dataDir, args));
const as = (member: string, ...args: string[]) => run(...args, "--token", tokens[member]);
const READY = (id: string) =>
  `It is ready: start it with contract_start({id: "${id}"}), do the work, and publish its outputs with artifact_publish (contractId "${id}").`;
const prompts = async (name: string): Promise<string[]> =>
  (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions.map((i: { prompt: string }) => i.prompt);

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  for (const name of ["api-dev", "qa-dev"]) tokens[name] = run("token", "create", name).stdout.trim();
  run("team-member", "api-dev", "--role", "backend", "--team", "p3");
  expect((await api(sh.hub, "POST", "/api/team-spawn", { team: "p3", name: "qa-dev", role: "testing" })).status).toBe(201);
  await waitForSession(sh.hub, "qa-dev", (s) => s.status === "idle");
}, 120_000);
afterAll(async () => sh?.close());

describe("assignees without a live session are told in their inbox", () => {
  it("qa-dev's contract for api-dev arrives from qa-dev, and the operator feed has the creation", async () => {
    const contract = {
      team: "p3",
      id: "fix-sql-injection",
      assignee: "api-dev",
      title: "Fix SQL injection in login endpoint",
      inputs: { context: "Parameterized queries missing in /login handler" },
      expectedOutputs: [{ artifactType: "api-contract", required: true }],
    };
    const turn = await api(sh.hub, "POST", "/api/sessions/qa-dev/send", { wait: true, message: `@mcp contract_create ${JSON.stringify(contract)}` });
    expect(turn.body.interaction.status, JSON.stringify(turn.body)).toBe("completed");
    expect((await api(sh.hub, "GET", "/api/contracts/fix-sql-injection?team=p3")).body).toMatchObject({
      assigner: "qa-dev",
      assignee: "api-dev",
      status: "ready",
    });

    const told = `qa-dev created contract 'fix-sql-injection' (Fix SQL injection in login endpoint) for you. Context: "Parameterized queries missing in /login handler". ${READY("fix-sql-injection")}`;
    expect(as("api-dev", "team-inbox", "--team", "p3").stdout).toMatch(
      new RegExp(`^\\* #\\d+ from qa-dev \\(contract\\) \\S+Z\\n {4}qa-dev created contract 'fix-sql-injection'`),
    );
    expect(
      as("api-dev", "team-inbox", "--team", "p3", "--json")
        .json()
        .messages.map((m: { from: string; kind: string; text: string }) => [m.from, m.kind, m.text]),
    ).toEqual([["qa-dev", "contract", told]]);
    const feed = (await api(sh.hub, "GET", "/api/chat/messages?team=p3&member=operator")).body.messages;
    expect(feed.map((m: { from: string; to: string; kind: string; text: string }) => [m.from, m.to, m.kind, m.text])).toEqual([
      ["qa-dev", "operator", "contract", "qa-dev created contract 'fix-sql-injection' (Fix SQL injection in login endpoint) for api-dev; it is ready."],
    ]);
  }, 120_000);

  it("the ci-loop pipeline's reopen reaches api-dev with the reason, from the pipeline's creator", async () => {
    as("qa-dev", "contract-create", "build-api", "--team", "p2", "--assignee", "api-dev", "--title", "Build the API", "--expected-output", "api-contract");
    const rulesFile = path.join(sh.hub.dataDir, "ci-loop.json");
    fs.writeFileSync(
      rulesFile,
      JSON.stringify([
        {
          trigger: { type: "artifact_published", artifactType: "api-contract" },
          action: { type: "notify_session", target: "qa-dev", message: "API contract updated — re-run tests" },
        },
        {
          trigger: { type: "artifact_published", artifactType: "test-results" },
          condition: "data.failed > 0",
          action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
        },
      ]),
    );
    as("qa-dev", "pipeline-create", "ci-loop", "--team", "p2", "--rules", rulesFile);
    as("api-dev", "artifact-publish", "api-auth", "--team", "p2", "--type", "api-contract", "--data", '{"endpoints":[{"method":"POST","path":"/login"}]}');
    expect((await api(sh.hub, "GET", "/api/contracts/build-api?team=p2")).body.status).toBe("completed");
    as("qa-dev", "artifact-publish", "tests-auth", "--team", "p2", "--type", "test-results", "--data", '{"total":10,"passed":7,"failed":3}');
    await vi.waitFor(
      async () => expect((await api(sh.hub, "GET", "/api/contracts/build-api?team=p2")).body).toMatchObject({ status: "ready", retryCount: 1 }),
      { timeout: 15_000, interval: 100 },
    );

    const inbox = as("api-dev", "team-inbox", "--team", "p2", "--json").json();
    expect(inbox.messages.map((m: { from: string; kind: string; text: string }) => [m.from, m.kind, m.text])).toEqual([
      [
        "qa-dev",
        "contract",
        `qa-dev through pipeline:ci-loop reopened contract 'build-api' (Build the API) (reopen 1 of at most 3), reason: Tests failing: 3 failures. ${READY("build-api")}`,
      ],
      ["qa-dev", "contract", `qa-dev created contract 'build-api' (Build the API) for you. ${READY("build-api")}`],
    ]);
  }, 60_000);
});

describe("a member with a live session", () => {
  it("is woken once for a transaction that readied two of its contracts, and not for contracts that only wait", async () => {
    const before = (await prompts("qa-dev")).length;
    run("contract-create", "gate", "--team", "p3", "--assignee", "api-dev", "--title", "Gate");
    for (const id of ["t1", "t2"]) run("contract-create", id, "--team", "p3", "--assignee", "qa-dev", "--title", `Test ${id}`, "--depends-on", "gate");
    run("contract-complete", "gate", "--team", "p3");
    // Wakes run in commit order: once this message's wake is there, every earlier one is too.
    as("api-dev", "team-send", "qa-dev", "done with the gate", "--team", "p3");
    await vi.waitFor(async () => expect((await prompts("qa-dev")).slice(before)).toHaveLength(2), { timeout: 30_000, interval: 100 });
    const [woken, message] = (await prompts("qa-dev")).slice(before);
    expect(woken).toMatch(
      /^\[Team Hub\] Contract notice from operator \(messageId \d+\):\n\n2 contract notices:\n- Contract 't1' \(Test t1\): pending → ready \(dependencies satisfied\)\. It is ready: start it/,
    );
    expect(woken).toContain(READY("t2"));
    expect(message).toContain("New message: api-dev wrote (dm");
    await waitForSession(sh.hub, "qa-dev", (s) => s.status === "idle" && s.queued === 0);
  }, 120_000);
});
