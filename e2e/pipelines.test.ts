/**
 * Pipelines against a running hub: created through the CLI, executed after commit by the hub's
 * runner, exactly once per (rule, event) even when the hub is killed in the middle of
 * processing, and hostile input never stops the hub from serving.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, cli, startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";
import { call, stdioClient } from "./helpers/mcp-client.ts";
import { query } from "./helpers/db-snapshot.ts";

const hubs: HubProcess[] = [];
afterAll(async () => Promise.all(hubs.map((h) => h.kill())));
const start = async (dataDir?: string) => {
  const h = await startHub(dataDir);
  hubs.push(h);
  return h;
};

describe("pipelines in a running hub", () => {
  it("runs the CI loop from a rules file, shows the log, and dry-runs a rule", async () => {
    const hub = await start();
    const run = (...args: string[]) => {
      const r = cli(hub.dataDir, args);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
      return r;
    };
    const rulesFile = path.join(hub.dataDir, "ci-rules.json");
    fs.writeFileSync(
      rulesFile,
      JSON.stringify({
        rules: [
          {
            trigger: { type: "artifact_published", artifactType: "api-contract" },
            action: { type: "notify_session", target: "qa-dev", message: "API contract updated — re-run tests" },
          },
          {
            trigger: { type: "artifact_published", artifactType: "test-results" },
            condition: "data.failed > 0",
            action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
          },
        ],
      }),
    );
    run("contract-create", "build-api", "--assignee", "api-dev", "--title", "Build the API", "--expected-output", "api-contract");
    expect(run("pipeline-create", "ci-loop", "--rules", rulesFile).stdout).toContain("created pipeline ci-loop (active): 2 rule(s)");
    run("artifact-publish", "api-auth", "--type", "api-contract", "--data", '{"endpoints":[{"method":"POST","path":"/login"}]}');
    run("artifact-publish", "tests-auth", "--type", "test-results", "--data", '{"total":10,"passed":7,"failed":3}');
    await expect.poll(() => cli(hub.dataDir, ["contract-get", "build-api", "--json"]).json().retryCount, { timeout: 10_000, interval: 100 }).toBe(1);
    expect(run("contract-get", "build-api", "--json").json()).toMatchObject({ status: "ready", statusReason: "Tests failing: 3 failures", retryCount: 1 });

    const got = run("pipeline-get", "ci-loop", "--json").json();
    expect(got.log.map((x: { rule: number; outcome: string }) => [x.rule, x.outcome]).reverse()).toEqual([
      [0, "executed"],
      [1, "executed"],
    ]);
    expect(run("pipeline-list").stdout).toMatch(/ci-loop\s+active\s+2\s+executed 2/);

    const dry = run(
      "pipeline-dry-run",
      "--rule",
      JSON.stringify({
        trigger: { type: "artifact_published" },
        condition: "data.failed > 0",
        action: { type: "broadcast", message: "${data.failed} failing" },
      }),
      "--event",
      JSON.stringify({
        type: "artifact.published",
        payload: {
          artifactId: "t",
          version: 1,
          seq: 1,
          type: "test-results",
          name: "t",
          publisher: "qa-dev",
          contractId: null,
          derivedFrom: [],
          summary: "",
          size: 64,
        },
        data: { total: 5, passed: 3, failed: 2 },
      }),
    );
    expect(dry.stdout).toContain('"message": "2 failing"');
    run("pipeline-pause", "ci-loop");
    expect(run("pipeline-list", "--json").json()[0].status).toBe("paused");

    // Editing: bad rules are refused naming the field (exit 2) and change nothing; good ones replace the rules.
    const before = query(hub.dbFile, `SELECT * FROM Pipeline`);
    const bad = cli(hub.dataDir, [
      "pipeline-update",
      "ci-loop",
      "--rules",
      '[{"trigger":{"type":"artifact_published"},"condition":"data.failed >","action":{"type":"broadcast","message":"x"}}]',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("rules[0].condition");
    expect(query(hub.dbFile, `SELECT * FROM Pipeline`)).toEqual(before);
    const edited = run(
      "pipeline-update",
      "ci-loop",
      "--rules",
      '[{"trigger":{"type":"artifact_published"},"action":{"type":"broadcast","message":"published"}}]',
    );
    expect(edited.stdout).toContain("updated pipeline ci-loop (paused): 1 rule(s)");
    expect(run("pipeline-get", "ci-loop", "--json").json().rules).toEqual([
      { trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "published" } },
    ]);
  }, 180_000); // fourteen CLI processes one after another, each a few seconds to start on a loaded machine

  it("refuses hostile rules with a clear error and keeps serving", async () => {
    const hub = await start();
    for (const condition of [
      "process.exit()",
      "constructor.constructor('return process')()",
      `${"(".repeat(3000)}true${")".repeat(3000)}`,
      "x".repeat(1024 * 1024),
    ]) {
      const res = await api(hub, "POST", "/api/pipelines", {
        id: "evil",
        rules: [{ trigger: { type: "artifact_published" }, condition, action: { type: "broadcast", message: "x" } }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.issues[0].field).toBe("rules[0].condition");
    }
    const r = cli(hub.dataDir, [
      "pipeline-create",
      "evil",
      "--rules",
      '[{"trigger":{"type":"artifact_published"},"condition":"require(\'fs\')","action":{"type":"broadcast","message":"x"}}]',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("rules[0].condition: found no matching overload for 'require(string)'");
    expect((await api(hub, "GET", "/api/health")).body.ok).toBe(true);
    expect(query(hub.dbFile, `SELECT * FROM Pipeline`)).toEqual([]);
  });

  it("executes each (rule, event) exactly once across a kill -9 in the middle of processing", async () => {
    const dataDir = tempDataDir("pipelines-crash");
    const first = await start(dataDir);
    await api(first, "POST", "/api/roster", { name: "alice" });
    const rules = Array.from({ length: 40 }, (_, i) => ({
      trigger: { type: "artifact_published", artifactType: "test-results" },
      condition: "data.failed >= 0",
      action: { type: "broadcast", message: `\${artifact.id}@v\${artifact.version}#${i}` },
    }));
    expect((await api(first, "POST", "/api/pipelines", { id: "fanout", rules })).status).toBe(201);
    await first.kill("SIGTERM");

    // A backlog the runner has never seen: `teamhub mcp` writes to the database but runs no pipelines.
    const writer = await stdioClient(dataDir);
    for (let i = 0; i < 300; i++)
      await call(writer, "artifact_publish", { id: `results-${i % 30}`, type: "test-results", data: { total: 1, passed: 1, failed: 0 } });
    await writer.close();
    const expected = 300 * rules.length;
    const executed = (file: string) => query<{ n: number }>(file, `SELECT COUNT(*) AS n FROM PipelineExecution`)[0].n;

    const second = await start(dataDir);
    await expect.poll(() => executed(second.dbFile), { timeout: 60_000, interval: 100 }).toBeGreaterThan(500);
    await second.kill("SIGKILL");
    const atKill = executed(second.dbFile);
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(expected);

    const third = await start(dataDir);
    await expect.poll(() => executed(third.dbFile), { timeout: 120_000, interval: 100 }).toBeGreaterThanOrEqual(expected);
    const executions = query<{ ruleIndex: number; eventId: number; outcome: string }>(third.dbFile, `SELECT * FROM PipelineExecution`);
    expect(executions).toHaveLength(expected);
    expect(new Set(executions.map((x) => `${x.ruleIndex}/${x.eventId}`)).size).toBe(expected);
    expect(executions.every((x) => x.outcome === "executed")).toBe(true);
    const texts = query<{ text: string }>(third.dbFile, `SELECT text FROM Message WHERE recipient = 'alice'`).map((m) => m.text);
    expect(texts).toHaveLength(expected);
    expect(new Set(texts).size).toBe(expected);
  }, 240_000);
});
