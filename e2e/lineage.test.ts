/**
 * Lineage through the CLI of a running hub, on the seed README's example:
 * schema@v1 → api@v2 → tests@v1; bumping the schema makes the API and, through it, the tests stale.
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

describe("lineage commands", () => {
  it("reports staleness, impact, lineage and the audit trail", () => {
    run("artifact-publish", "schema-user-model", "--type", "schema-change", "--data", '{"models":[{"name":"User","fields":["email"]}]}');
    run("artifact-publish", "api-contract-user-auth", "--type", "api-contract", "--derived-from", "schema-user-model@v1", "--data", '{"endpoints":[{"method":"POST","path":"/login"}]}');
    run("artifact-publish", "api-contract-user-auth", "--type", "api-contract", "--derived-from", "schema-user-model@v1", "--data", '{"endpoints":[{"method":"POST","path":"/login"},{"method":"POST","path":"/logout"}]}');
    run("artifact-publish", "test-results-auth", "--type", "test-results", "--derived-from", "api-contract-user-auth@v2", "--data", '{"total":12,"passed":12,"failed":0}');
    run("contract-create", "write-docs", "--assignee", "docs-dev", "--title", "Document the API", "--needs-artifact", "api-contract-user-auth");
    expect(run("artifact-stale").stdout).toBe("nothing is stale\n");

    run("artifact-publish", "schema-user-model", "--type", "schema-change", "--data", '{"models":[{"name":"User","fields":["email","phone"]}]}');
    const stale = run("artifact-stale", "--json").json();
    expect(stale).toEqual([
      { artifactId: "api-contract-user-auth", version: 2, reasons: [{ kind: "superseded", input: "schema-user-model@v1", current: 2 }] },
      { artifactId: "test-results-auth", version: 1, reasons: [{ kind: "upstream_stale", input: "api-contract-user-auth@v2" }] },
    ]);
    expect(run("artifact-stale").stdout).toContain("built on schema-user-model@v1, now v2");

    const impact = run("artifact-impact", "schema-user-model", "--json").json();
    expect(impact.artifacts.map((a: { artifactId: string; depth: number }) => [a.artifactId, a.depth])).toEqual([["api-contract-user-auth", 1], ["test-results-auth", 2]]);
    expect(impact.contracts).toEqual([expect.objectContaining({ contractId: "write-docs", artifactId: "api-contract-user-auth", relation: "dependency" })]);

    const upstream = run("artifact-lineage", "test-results-auth").stdout;
    expect(upstream).toContain("test-results-auth@v1 (test-results, stale)");
    expect(upstream).toContain("◄─ api-contract-user-auth@v2 (api-contract, stale)");
    expect(upstream).toContain("◄─ schema-user-model@v1 (schema-change)");
    const downstream = run("artifact-lineage", "schema-user-model@v1", "--direction", "downstream", "--json").json();
    expect(downstream.nodes.map((n: { key: string }) => n.key).sort()).toEqual(["api-contract-user-auth@v1", "api-contract-user-auth@v2", "schema-user-model@v1", "test-results-auth@v1"]);

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
});
