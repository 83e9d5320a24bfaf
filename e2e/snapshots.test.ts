/**
 * Snapshots, replay, the phase gate and team reset through the CLI of a running hub
 * (snapshot → finish the work → replay with another approach → compare).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

const run = (...args: string[]) => {
  const r = cli(hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r;
};
const states = () => Object.fromEntries((run("contract-list", "--json").json().items as { id: string; status: string }[]).map((c) => [c.id, c.status]));
const publishChain = (api: string) => {
  run("artifact-publish", "schema-user-model", "--type", "schema-change", "--data", '{"models":[{"name":"User","fields":["email"]}]}');
  run(
    "artifact-publish",
    "api-contract-user-auth",
    "--type",
    "api-contract",
    "--derived-from",
    "schema-user-model",
    "--data",
    JSON.stringify({ endpoints: [{ method: "POST", path: api }] }),
  );
  run(
    "artifact-publish",
    "test-results-auth",
    "--type",
    "test-results",
    "--derived-from",
    "api-contract-user-auth",
    "--data",
    '{"total":4,"passed":4,"failed":0}',
  );
};

describe("snapshot → replay → compare", () => {
  it("replays a finished chain with an override, keeps both runs, diffs and undoes", () => {
    run("contract-create", "setup-user-model", "--assignee", "db-dev", "--title", "Schema", "--expected-output", "schema-change");
    run(
      "contract-create",
      "build-auth-api",
      "--assignee",
      "api-dev",
      "--title",
      "API",
      "--depends-on",
      "setup-user-model",
      "--expected-output",
      "api-contract",
      "--context",
      "Use REST",
    );
    run(
      "contract-create",
      "write-auth-tests",
      "--assignee",
      "qa-dev",
      "--title",
      "Tests",
      "--depends-on",
      "build-auth-api",
      "--expected-output",
      "test-results",
    );
    expect(run("team-snapshot", "pre-work", "--label", "All contracts created").stdout).toContain(
      "snapshot pre-work of team 'default': 3 contracts, 0 artifacts",
    );
    publishChain("/login");
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "completed" });

    const diff = run("team-snapshot-diff", "pre-work", "--json").json();
    expect(diff.artifacts.added.map((a: { id: string }) => a.id).sort()).toEqual(["api-contract-user-auth", "schema-user-model", "test-results-auth"]);
    expect(diff.contracts.changed.map((c: { id: string; fields: Record<string, { new: unknown }> }) => [c.id, c.fields.status.new])).toEqual([
      ["build-auth-api", "completed"],
      ["setup-user-model", "completed"],
      ["write-auth-tests", "completed"],
    ]);
    expect(run("team-snapshot-diff", "pre-work").stdout).toContain("~ build-auth-api.status: pending → completed");

    const replayed = run("team-replay", "pre-work", "--overrides", '{"build-auth-api":{"inputs":{"context":"Use GraphQL instead of REST"}}}', "--json").json();
    expect(replayed.rolledBackCount).toBe(3);
    expect(states()).toEqual({ "setup-user-model": "ready", "build-auth-api": "pending", "write-auth-tests": "pending" });
    expect(run("contract-get", "build-auth-api", "--json").json().inputs).toEqual({ context: "Use GraphQL instead of REST" });
    expect(run("artifact-get", "api-contract-user-auth", "--version", "1", "--json").json()).toMatchObject({
      version: 1,
      status: "rolled_back",
      data: { endpoints: [{ path: "/login" }] },
    });

    publishChain("/graphql");
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "completed" });
    const history = run("artifact-history", "api-contract-user-auth", "--json").json();
    expect(history.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [1, "rolled_back"],
      [2, "active"],
    ]);

    // The preview of the undo: what it will roll back and bring back, writing nothing; then the undo does exactly that.
    const preview = run("team-rollback", replayed.autoSnapshot, "--dry-run", "--json").json();
    expect(preview).toMatchObject({
      dryRun: true,
      reRun: [],
      rolledBackVersions: ["api-contract-user-auth@v2", "schema-user-model@v2", "test-results-auth@v2"],
      reactivatedCount: 3,
    });
    expect(run("team-rollback", replayed.autoSnapshot, "--dry-run").stdout).toMatch(
      /^dry run, nothing written: rolling back team 'default' to snapshot pre-replay-\S+ would\n {2}versions rolled back: 3 \(api-contract-user-auth@v2, schema-user-model@v2, test-results-auth@v2\)\n {2}versions active again: 3/,
    );
    expect(run("artifact-get", "api-contract-user-auth", "--json").json()).toMatchObject({ version: 2, status: "active" });
    const { autoSnapshot: _undo, dryRun: _real, ...undone } = run("team-rollback", replayed.autoSnapshot, "--json").json();
    const { dryRun: _preview, ...previewed } = preview;
    expect(undone).toEqual(previewed);
    expect(run("artifact-get", "api-contract-user-auth", "--json").json()).toMatchObject({ version: 1, status: "active" });
    expect(run("contract-get", "build-auth-api", "--json").json()).toMatchObject({ status: "completed", inputs: { context: "Use REST" } });
    expect(
      run("team-snapshot-list", "--json")
        .json()
        .items.map((s: { kind: string }) => s.kind),
    ).toEqual(["pre-rollback", "pre-replay", "manual"]);
  });

  it("gates a phase, then resets the team keeping one artifact, and restores it all", () => {
    const failing = cli(hub.dataDir, [
      "phase-gate",
      "--completing",
      "Phase 1",
      "--starting",
      "Phase 2",
      "--artifact",
      "schema-user-model",
      "--artifact",
      "missing-doc",
    ]);
    expect(failing.code).toBe(0);
    expect(failing.stdout).toMatch(/^FAILED: Phase 1 → Phase 2\n {2}✗ artifacts_exist/);
    const passing = run("phase-gate", "--completing", "Phase 1", "--starting", "Phase 2", "--artifact", "schema-user-model", "--json").json();
    expect(passing).toMatchObject({ passed: true, gateCount: 1 });

    expect(cli(hub.dataDir, ["team-reset"]).stderr).toContain("confirm");
    const reset = run("team-reset", "--confirm", "--preserve", "schema-user-model", "--json").json();
    expect(reset).toMatchObject({ preserved: ["schema-user-model"], removed: { contracts: 3 } });
    expect(
      run("artifact-list", "--json")
        .json()
        .items.map((a: { id: string }) => a.id),
    ).toEqual(["schema-user-model"]);
    expect(run("contract-list", "--json").json().items).toEqual([]);

    run("team-rollback", reset.snapshotId);
    expect(
      run("artifact-list", "--json")
        .json()
        .items.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual(["api-contract-user-auth", "schema-user-model", "test-results-auth"]);
    expect(states()).toEqual({ "setup-user-model": "completed", "build-auth-api": "completed", "write-auth-tests": "completed" });
  });
});
