/**
 * @modelcontextprotocol/conformance's server suite against a started hub's /mcp. Every scenario
 * that does not depend on the suite's own fixture names must pass; the rest are listed, with the
 * reason, in e2e/mcp/conformance-expected-failures.yml (the suite also fails if one starts passing).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

describe("MCP conformance", () => {
  it("passes every scenario that does not call the suite's fixtures", () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
        "server",
        "--url",
        `${hub.url}/mcp`,
        "--expected-failures",
        path.join(ROOT, "e2e/mcp/conformance-expected-failures.yml"),
        "-o",
        tempDataDir("conformance"),
      ],
      { encoding: "utf8", timeout: 240_000 },
    );
    const summary = r.stdout.slice(r.stdout.indexOf("=== SUMMARY ==="));
    expect(r.status, summary + r.stderr).toBe(0);
    for (const scenario of [
      "server-initialize",
      "ping",
      "logging-set-level",
      "tools-list",
      "server-sse-multiple-streams",
      "resources-list",
      "prompts-list",
      "dns-rebinding-protection",
    ]) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
    expect(summary).toContain("Baseline check passed: all failures are expected.");
  }, 300_000);
});
