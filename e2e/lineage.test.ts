/**
 * Lineage through the CLI of a running hub, on the Quick Start's artifacts:
 * schema@v1 → api@v2 → tests@v1; bumping the schema makes the API and, through it, the tests stale.
 * Then the reported case: an API republished from the new schema under a contract that pinned the
 * old one, explained the same way by the CLI, the HTTP API and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cli, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

const run = (...args: string[]) => {
  const r = cli(hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r;
};

describe("lineage commands", () => {
  it("reports staleness, impact, lineage and the audit trail", () => {
    run("artifact-publish", "schema-user-model", "--type", "schema-change", "--data", '{"models":[{"name":"User","fields":["email"]}]}');
    run(
      "artifact-publish",
      "api-contract-user-auth",
      "--type",
      "api-contract",
      "--derived-from",
      "schema-user-model@v1",
      "--data",
      '{"endpoints":[{"method":"POST","path":"/login"}]}',
    );
    run(
      "artifact-publish",
      "api-contract-user-auth",
      "--type",
      "api-contract",
      "--derived-from",
      "schema-user-model@v1",
      "--data",
      '{"endpoints":[{"method":"POST","path":"/login"},{"method":"POST","path":"/logout"}]}',
    );
    run(
      "artifact-publish",
      "test-results-auth",
      "--type",
      "test-results",
      "--derived-from",
      "api-contract-user-auth@v2",
      "--data",
      '{"total":12,"passed":12,"failed":0}',
    );
    run("contract-create", "write-docs", "--assignee", "docs-dev", "--title", "Document the API", "--needs-artifact", "api-contract-user-auth");
    expect(run("artifact-stale").stdout).toBe("nothing is stale\n");

    run("artifact-publish", "schema-user-model", "--type", "schema-change", "--data", '{"models":[{"name":"User","fields":["email","phone"]}]}');
    const stale = run("artifact-stale", "--json").json();
    const root = { kind: "superseded", root: "schema-user-model@v1", current: "schema-user-model@v2" };
    const apiStep = { version: "api-contract-user-auth@v2", input: "schema-user-model@v1", via: "derivedFrom" };
    expect(stale).toEqual([
      { artifactId: "api-contract-user-auth", version: 2, reasons: [{ ...root, path: [apiStep] }] },
      {
        artifactId: "test-results-auth",
        version: 1,
        reasons: [{ ...root, path: [{ version: "test-results-auth@v1", input: "api-contract-user-auth@v2", via: "derivedFrom" }, apiStep] }],
      },
    ]);
    expect(run("artifact-stale").stdout).toBe(
      [
        "api-contract-user-auth@v2",
        "   schema-user-model@v1 was superseded by schema-user-model@v2",
        "     path: api-contract-user-auth@v2 ← schema-user-model@v1 (derivedFrom)",
        "test-results-auth@v1",
        "   schema-user-model@v1 was superseded by schema-user-model@v2",
        "     path: test-results-auth@v1 ← api-contract-user-auth@v2 (derivedFrom) ← schema-user-model@v1 (derivedFrom)",
        "",
      ].join("\n"),
    );

    const impact = run("artifact-impact", "schema-user-model", "--json").json();
    expect(impact.artifacts.map((a: { artifactId: string; depth: number }) => [a.artifactId, a.depth])).toEqual([
      ["api-contract-user-auth", 1],
      ["test-results-auth", 2],
    ]);
    expect(impact.contracts).toEqual([expect.objectContaining({ contractId: "write-docs", artifactId: "api-contract-user-auth", relation: "dependency" })]);

    const upstream = run("artifact-lineage", "test-results-auth").stdout;
    expect(upstream).toContain("test-results-auth@v1 (test-results, stale)");
    expect(upstream).toContain("◄─ api-contract-user-auth@v2 (api-contract, stale)");
    expect(upstream).toContain("◄─ schema-user-model@v1 (schema-change)");
    const downstream = run("artifact-lineage", "schema-user-model@v1", "--direction", "downstream", "--json").json();
    expect(downstream.nodes.map((n: { key: string }) => n.key).sort()).toEqual([
      "api-contract-user-auth@v1",
      "api-contract-user-auth@v2",
      "schema-user-model@v1",
      "test-results-auth@v1",
    ]);

    const trail = run("team-audit", "test-results-auth", "--json").json().trail;
    expect(trail.map((e: { artifactId: string; version: number; publisher: string; cost: null }) => [e.artifactId, e.version, e.publisher, e.cost])).toEqual([
      ["test-results-auth", 1, "operator", null],
      ["api-contract-user-auth", 2, "operator", null],
      ["schema-user-model", 1, "operator", null],
    ]);
    const bad = cli(hub.dataDir, ["artifact-lineage", "nope@v1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("ref: artifact 'nope' does not exist");
  });

  it("says when the path runs through a contract's pinned input: on the CLI, the HTTP API and MCP", async () => {
    run(
      "contract-create",
      "design-reset-schema",
      "--assignee",
      "db-dev",
      "--title",
      "Design the reset schema",
      "--expected-output",
      "schema-change:schema-reset",
    );
    run(
      "contract-create",
      "build-reset",
      "--assignee",
      "api-dev",
      "--title",
      "Build password reset",
      "--depends-on",
      "design-reset-schema",
      "--expected-output",
      "api-contract:api-contract-reset",
    );
    run("contract-start", "design-reset-schema");
    run(
      "artifact-publish",
      "schema-reset",
      "--type",
      "schema-change",
      "--contract",
      "design-reset-schema",
      "--data",
      '{"models":[{"name":"Reset","fields":["token"]}]}',
    );
    run("contract-start", "build-reset");
    run(
      "artifact-publish",
      "api-contract-reset",
      "--type",
      "api-contract",
      "--contract",
      "build-reset",
      "--derived-from",
      "schema-reset@v1",
      "--data",
      '{"endpoints":[{"method":"POST","path":"/reset"}]}',
    );
    // The schema moves on outside its contract; build-reset runs again and publishes from the new one.
    run("artifact-publish", "schema-reset", "--type", "schema-change", "--data", '{"models":[{"name":"Reset","fields":["token","expiresAt"]}]}');
    run("contract-reopen", "build-reset", "--reason", "schema changed");
    run("contract-start", "build-reset");
    run(
      "artifact-publish",
      "api-contract-reset",
      "--type",
      "api-contract",
      "--contract",
      "build-reset",
      "--derived-from",
      "schema-reset@v2",
      "--data",
      '{"endpoints":[{"method":"POST","path":"/reset"}]}',
    );

    const reason = {
      kind: "superseded",
      root: "schema-reset@v1",
      current: "schema-reset@v2",
      path: [{ version: "api-contract-reset@v2", input: "schema-reset@v1", via: "contract", contractId: "build-reset" }],
    };
    const ofReset = (list: Array<{ artifactId: string }>) => list.find((s) => s.artifactId === "api-contract-reset");
    expect(ofReset(run("artifact-stale", "--json").json())).toEqual({ artifactId: "api-contract-reset", version: 2, reasons: [reason] });
    expect(run("artifact-stale").stdout).toContain(
      "api-contract-reset@v2\n   schema-reset@v1 was superseded by schema-reset@v2\n     path: api-contract-reset@v2 ← schema-reset@v1 (through contract build-reset's pinned input)\n",
    );
    expect(ofReset((await api(hub, "GET", "/api/stale")).body)).toEqual({ artifactId: "api-contract-reset", version: 2, reasons: [reason] });
    const mcp = await httpClient(hub.url);
    try {
      expect(ofReset((await call(mcp, "artifact_stale")).json())).toEqual({ artifactId: "api-contract-reset", version: 2, reasons: [reason] });
    } finally {
      await mcp.close();
    }
  });
});
