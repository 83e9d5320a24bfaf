/**
 * The Quick Start chain (docs/cli.md#the-quick-start-chain), run through the real CLI against a started hub:
 * three chained contracts resolve themselves as the schema, the API contract and the test
 * results are published.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

const run = (...args: string[]) => {
  const r = cli(hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r;
};
const states = () => Object.fromEntries((run("contract-list", "--json").json().items as { id: string; status: string }[]).map((c) => [c.id, c.status]));

describe("Quick Start through the CLI", () => {
  it("creates the chain, resolves it as artifacts arrive, and ends with every contract completed", () => {
    run("contract-create", "setup-user-model", "--assignee", "db-dev", "--title", "Create User schema", "--expected-output", "schema-change");
    run(
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
    run(
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
    expect(states()).toEqual({ "setup-user-model": "ready", "build-auth-api": "pending", "write-auth-tests": "pending" });

    const schema = run(
      "artifact-publish",
      "schema-user-model",
      "--type",
      "schema-change",
      "--name",
      "User model schema",
      "--data",
      '{"models":[{"name":"User","fields":["email","phone","password"]}]}',
    );
    // "→ setup-user-model auto-completes → build-auth-api becomes ready"
    expect(schema.stdout).toContain("published schema-user-model@v1");
    expect(schema.stdout).toMatch(/setup-user-model: ready → completed[\s\S]*build-auth-api: pending → ready/);
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "ready", "write-auth-tests": "pending" });

    const api = run(
      "artifact-publish",
      "api-contract-user-auth",
      "--type",
      "api-contract",
      "--name",
      "Auth API contract",
      "--derived-from",
      "schema-user-model@v1",
      "--data",
      '{"endpoints":[{"method":"POST","path":"/login"}]}',
    );
    expect(api.stdout).toMatch(/build-auth-api: ready → completed[\s\S]*write-auth-tests: pending → ready/);
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "ready" });

    const tests = run(
      "artifact-publish",
      "test-results-auth",
      "--type",
      "test-results",
      "--name",
      "Auth integration tests",
      "--derived-from",
      "api-contract-user-auth@v1",
      "--data",
      '{"total":12,"passed":12,"failed":0}',
      "--json",
    ).json();
    expect(tests).toMatchObject({ artifactId: "test-results-auth", version: 1, derivedFrom: ["api-contract-user-auth@v1"] });
    expect(tests.effects).toEqual([{ contractId: "write-auth-tests", from: "ready", to: "completed", reason: "acceptance criteria met" }]);
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "completed" });

    const artifacts = run("artifact-list", "--json").json().items as { id: string; currentVersion: number; publisher: string }[];
    expect(artifacts.map((a) => [a.id, a.currentVersion, a.publisher])).toEqual([
      ["schema-user-model", 1, "operator"],
      ["api-contract-user-auth", 1, "operator"],
      ["test-results-auth", 1, "operator"],
    ]);
    const final = run("contract-get", "write-auth-tests", "--json").json();
    expect(final).toMatchObject({
      status: "completed",
      outputs: [{ artifactId: "test-results-auth", version: 1 }],
      pinnedInputs: [{ artifactId: "api-contract-user-auth", version: 1 }],
    });

    // The whole sequence is in the event log, in order.
    const changes = query<{ subject: string; payload: string }>(
      hub.dbFile,
      `SELECT subject, payload FROM Event WHERE type = 'contract.status_changed' ORDER BY id`,
    ).map((e) => `${e.subject.slice(9)}:${JSON.parse(e.payload).to}`);
    expect(changes).toEqual([
      "setup-user-model:ready",
      "setup-user-model:completed",
      "build-auth-api:ready",
      "build-auth-api:completed",
      "write-auth-tests:ready",
      "write-auth-tests:completed",
    ]);
  });

  it("reads an artifact through the CLI, records the read, and lists the history", () => {
    const got = run("artifact-get", "test-results-auth", "--json").json();
    expect(got).toMatchObject({ version: 1, data: { total: 12, passed: 12, failed: 0 } });
    expect(run("artifact-readers", "test-results-auth", "--json").json().readers).toEqual([
      expect.objectContaining({ reader: "operator", reads: 1, lastVersion: 1 }),
    ]);
    run("artifact-publish", "test-results-auth", "--type", "test-results", "--data", '{"total":12,"passed":11,"failed":1}');
    const history = run("artifact-history", "test-results-auth", "--json").json();
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(run("artifact-get", "test-results-auth", "--version", "1", "--json").json().data.passed).toBe(12);
  });

  it("says clearly that the hub is not running, with its own exit code", () => {
    const r = cli(hub.dataDir, ["contract-list"], { TEAMHUB_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("Team Hub is not running at http://127.0.0.1:9");
    expect(r.stderr).toContain("teamhub start");
  });
});
