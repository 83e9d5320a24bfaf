/**
 * The Quick Start chain (docs/cli.md#the-quick-start-chain) run to its very end through the `teamhub` CLI, with the three
 * members as real `claude` sessions (against the fake API) that are woken for their contracts,
 * start them and publish through MCP. After `team-snapshot pre-graphql` the replay with a GraphQL
 * override re-runs build-auth-api and write-auth-tests: their sessions are woken again, read the
 * new context through contract_start, and publish @v2 beside @v1. `team-replay --dry-run`
 * beforehand listed exactly what then happened, and wrote nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Reply } from "./fake-anthropic/server.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { mcp, memberOf, startOnNotice } from "./fake-anthropic/members.ts";
import { toolResults, type MessagesRequest } from "./fake-anthropic/request.ts";
import { expectDbUnchanged, query } from "./helpers/db-snapshot.ts";
import { api, cliAsync } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const GRAPHQL = "Use GraphQL instead of REST";
const OVERRIDES = JSON.stringify({ "build-auth-api": { inputs: { context: GRAPHQL } } });
const MEMBERS = ["db-dev", "api-dev", "qa-dev"];

type Started = { contract: { id: string }; inputs: { context?: string }; resolvedInputs: Array<{ artifactId: string; version: number }> };

/** What each member publishes for its contract; the API follows the context its contract_start returned. */
const OUTPUTS: Record<string, (s: Started) => { id: string; type: string; name: string; data: unknown }> = {
  "setup-user-model": () => ({
    id: "schema-user-model",
    type: "schema-change",
    name: "User model schema",
    data: { models: [{ name: "User", fields: ["email", "phone", "password"] }] },
  }),
  "build-auth-api": (s) => ({
    id: "api-contract-user-auth",
    type: "api-contract",
    name: "Auth API contract",
    data: { endpoints: [s.inputs.context?.includes("GraphQL") ? { method: "POST", path: "/graphql" } : { method: "POST", path: "/login" }] },
  }),
  "write-auth-tests": () => ({ id: "test-results-auth", type: "test-results", name: "Auth integration tests", data: { total: 12, passed: 12, failed: 0 } }),
};

/** A member: woken for a ready contract it starts it, publishes its output derived from the pinned inputs, and says so; anything else it notes. */
function member(req: MessagesRequest): Reply | undefined {
  const name = memberOf(req);
  if (!name) return undefined;
  const results = toolResults(req);
  if (results.length === 0) return startOnNotice(req, name);
  const last = results[results.length - 1];
  if (last.name === "mcp__teamhub__contract_start" && !last.isError) {
    const started = JSON.parse(last.text) as Started;
    const out = OUTPUTS[started.contract.id](started);
    return mcp("artifact_publish", {
      ...out,
      derivedFrom: started.resolvedInputs.map((r) => `${r.artifactId}@v${r.version}`),
      contractId: started.contract.id,
    });
  }
  return { text: `${name} finished: ${last.name.replace("mcp__teamhub__", "")}${last.isError ? ` failed: ${last.text}` : ""}` };
}

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel(member))));
afterAll(async () => sh?.close());

/** The CLI, without blocking this process: it serves the fake API the sessions talk to. */
const run = async (...args: string[]) => {
  const r = await cliAsync(sh.hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}${r.stdout}`).toBe(0);
  return r;
};
const states = async () =>
  Object.fromEntries(((await api(sh.hub, "GET", "/api/contracts")).body.items as Array<{ id: string; status: string }>).map((c) => [c.id, c.status]));
const allCompleted = { "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "completed" };
const versions = async (id: string) =>
  (await run("artifact-history", id, "--json")).json().versions.map((v: { version: number; status: string }) => [v.version, v.status]);
const idle = (s: { status: string; queued: number; running: unknown }) => s.status === "idle" && s.queued === 0 && s.running === null;
const eventsAfter = (id: number) =>
  query<{ id: number; type: string; payload: string }>(
    sh.hub.dbFile,
    `SELECT "id","type","payload" FROM "Event" WHERE "teamId" = 'default' AND "id" > ? ORDER BY "id"`,
    id,
  ).map((e) => ({
    ...e,
    payload: JSON.parse(e.payload),
  }));
const lastEventId = () => query<{ id: number }>(sh.hub.dbFile, `SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`)[0].id;

describe("the Quick Start chain, to its end, with members as real sessions", () => {
  it("runs the chain, snapshots it, previews the GraphQL replay, replays it, and the re-run publishes @v2 beside @v1", async () => {
    // Spawn 3 team members (together: one spawn batch).
    await Promise.all([
      run("team-spawn", "--name", "db-dev", "--role", "database", "--prompt", "Create User model", "--work-dir", sh.work),
      run("team-spawn", "--name", "api-dev", "--role", "backend", "--prompt", "Build auth API", "--work-dir", sh.work),
      run("team-spawn", "--name", "qa-dev", "--role", "QA", "--prompt", "Write auth tests", "--work-dir", sh.work),
    ]);
    for (const name of MEMBERS) await waitForSession(sh.hub, name, idle, 60_000);

    // Create a contract chain; the members take it from there.
    await run("contract-create", "setup-user-model", "--assignee", "db-dev", "--title", "Create User schema", "--expected-output", "schema-change");
    await run(
      "contract-create",
      "build-auth-api",
      "--assignee",
      "api-dev",
      "--title",
      "Build auth endpoints",
      "--depends-on",
      "setup-user-model",
      "--expected-output",
      "api-contract",
    );
    await run(
      "contract-create",
      "write-auth-tests",
      "--assignee",
      "qa-dev",
      "--title",
      "Write integration tests",
      "--depends-on",
      "build-auth-api",
      "--expected-output",
      "test-results",
    );
    await vi.waitFor(async () => expect(await states()).toEqual(allCompleted), { timeout: 120_000, interval: 250 });
    for (const name of MEMBERS) await waitForSession(sh.hub, name, idle, 60_000);

    const lineage = (await run("artifact-lineage", "test-results-auth", "--direction", "upstream")).stdout;
    expect(lineage).toMatch(
      /^test-results-auth@v1 \(test-results\)\n◄─ api-contract-user-auth@v1 \(api-contract\)[\s\S]*◄─ schema-user-model@v1 \(schema-change\)/,
    );
    const firstRun = (await api(sh.hub, "GET", "/api/artifacts/api-contract-user-auth?version=1")).body;
    expect(firstRun).toMatchObject({ publisher: "api-dev", data: { endpoints: [{ path: "/login" }] }, derivedFrom: ["schema-user-model@v1"] });

    // Take a snapshot before trying a different approach.
    expect((await run("team-snapshot", "pre-graphql", "--label", "Auth feature complete with REST")).stdout).toContain(
      "snapshot pre-graphql of team 'default': 3 contracts, 3 artifacts",
    );

    // The preview first: exactly what will happen, and nothing written.
    let preview: any;
    await expectDbUnchanged(
      sh.hub.dbFile,
      async () => {
        preview = (await run("team-replay", "pre-graphql", "--overrides", OVERRIDES, "--dry-run", "--json")).json();
      },
      (db) => Object.fromEntries(["Contract", "ContractDependency", "ArtifactVersion", "Snapshot", "Message", "Event"].map((t) => [t, db[t]])),
    );
    expect(preview).toMatchObject({
      dryRun: true,
      reRun: [
        { id: "build-auth-api", assignee: "api-dev", from: "completed", snapshot: "completed", to: "ready", because: "named in the overrides" },
        {
          id: "write-auth-tests",
          assignee: "qa-dev",
          from: "completed",
          snapshot: "completed",
          to: "pending",
          because: "depends on contract 'build-auth-api'",
        },
      ],
      reRunCount: 2,
      rolledBackVersions: [],
      removed: { contractsCount: 0, pipelinesCount: 0 },
      overridden: { "build-auth-api": { inputs: { old: {}, new: { context: GRAPHQL } } } },
    });
    expect(preview).not.toHaveProperty("autoSnapshot");
    const told = (await run("team-replay", "pre-graphql", "--overrides", OVERRIDES, "--dry-run")).stdout;
    expect(told).toContain("dry run, nothing written: replaying team 'default' to snapshot pre-graphql would");
    expect(told).toContain("build-auth-api (api-dev): completed → ready, named in the overrides");
    expect(told).toContain("write-auth-tests (qa-dev): completed → pending, depends on contract 'build-auth-api'");

    // Replay with overrides to try GraphQL instead.
    const mark = lastEventId();
    const replayed = (await run("team-replay", "pre-graphql", "--overrides", OVERRIDES, "--json")).json();
    const { autoSnapshot, dryRun, ...done } = replayed;
    expect(autoSnapshot).toMatch(/^pre-replay-/);
    expect(dryRun).toBe(false);
    const { dryRun: _preview, ...previewed } = preview;
    expect(done).toEqual(previewed);

    // "Entire workflow re-executes with GraphQL approach": both members are woken and run again.
    await vi.waitFor(async () => expect(await states()).toEqual(allCompleted), { timeout: 120_000, interval: 250 });
    const after = eventsAfter(mark);
    const starts = after.filter((e) => e.type === "contract.status_changed" && e.payload.to === "in_progress").map((e) => e.payload.id);
    expect(starts).toEqual(preview.reRun.map((r: { id: string }) => r.id));
    const sequence = after
      .filter((e) => (e.type === "contract.status_changed" && e.payload.to !== "in_progress") || e.type === "artifact.published")
      .map((e) =>
        e.type === "artifact.published"
          ? `published ${e.payload.artifactId}@v${e.payload.version} by ${e.payload.publisher}`
          : `${e.payload.id}: ${e.payload.from} → ${e.payload.to}`,
      );
    expect(sequence).toEqual([
      "build-auth-api: completed → ready",
      "write-auth-tests: completed → pending",
      "published api-contract-user-auth@v2 by api-dev",
      "build-auth-api: in_progress → completed",
      "write-auth-tests: pending → ready",
      "published test-results-auth@v2 by qa-dev",
      "write-auth-tests: in_progress → completed",
    ]);
    const turns = after.filter((e) => e.type === "session.turn_started").map((e) => e.payload.name);
    expect(new Set(turns)).toEqual(new Set(["api-dev", "qa-dev"]));
    // The re-run got the new context through contract_start, from the woken session itself.
    const startedWith = sh.fake.requests
      .flatMap((r) => toolResults(r).filter((t) => t.name === "mcp__teamhub__contract_start" && t.text.includes(GRAPHQL)))
      .map((t) => (JSON.parse(t.text) as Started).contract.id);
    expect(new Set(startedWith)).toEqual(new Set(["build-auth-api"]));

    // New versions appear beside the first run's, which stay active as older versions.
    expect(await versions("api-contract-user-auth")).toEqual([
      [1, "active"],
      [2, "active"],
    ]);
    expect(await versions("test-results-auth")).toEqual([
      [1, "active"],
      [2, "active"],
    ]);
    expect(await versions("schema-user-model")).toEqual([[1, "active"]]);
    expect((await run("artifact-get", "api-contract-user-auth", "--json")).json()).toMatchObject({
      version: 2,
      publisher: "api-dev",
      data: { endpoints: [{ method: "POST", path: "/graphql" }] },
      derivedFrom: ["schema-user-model@v1"],
    });
    expect((await run("artifact-get", "test-results-auth", "--json")).json()).toMatchObject({
      version: 2,
      publisher: "qa-dev",
      derivedFrom: ["api-contract-user-auth@v2"],
    });
    expect((await run("contract-get", "setup-user-model", "--json")).json()).toMatchObject({
      status: "completed",
      outputs: [{ artifactId: "schema-user-model", version: 1 }],
    });

    // team-snapshot-diff shows the change.
    const diff = (await run("team-snapshot-diff", "pre-graphql")).stdout;
    expect(diff).toContain(`~ build-auth-api.inputs: {} → {"context":"${GRAPHQL}"}`);
    expect(diff).toMatch(
      /~ build-auth-api\.outputs: \[\{"artifactId":"api-contract-user-auth","version":1,[^\n]*\]\s→ \[\{"artifactId":"api-contract-user-auth","version":2,/,
    );
    expect(diff).toContain("~ api-contract-user-auth.version: 1 → 2");
    expect(diff).toContain("~ test-results-auth.version: 1 → 2");
    expect(diff).not.toContain("schema-user-model");
    expect(diff).not.toContain("setup-user-model");
  }, 300_000);
});
