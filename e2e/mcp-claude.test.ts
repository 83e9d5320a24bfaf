/**
 * A real client: the pinned `claude` CLI, driven by the fake Messages API, calls artifact_publish
 * and then contract_get through Team Hub's MCP server, with a member's token. The artifact is
 * stored as that member's and the contract waiting for it completes. Over /mcp and over stdio.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeApi, type FakeApi, type Reply } from "./fake-anthropic/server.ts";
import { toolNames, toolResults, type MessagesRequest } from "./fake-anthropic/request.ts";
import { claudeEnv, runClaude } from "./helpers/claude.ts";
import { BIN, api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";

let hub: HubProcess;
let token: string;
beforeAll(async () => {
  hub = await startHub();
  token = (await api(hub, "POST", "/api/tokens", { name: "api-dev" })).body.token;
});
afterAll(async () => hub?.kill());

/** The model's side of the conversation: publish the output, check the contract, report its status. */
function script(artifactId: string, contractId: string) {
  return (req: MessagesRequest): Reply => {
    if (!toolNames(req).includes("mcp__teamhub__artifact_publish")) return { text: "(no Team Hub tools in this request)" };
    const results = toolResults(req);
    const last = results[results.length - 1];
    if (!last) {
      return {
        tools: [
          {
            name: "mcp__teamhub__artifact_publish",
            input: { id: artifactId, type: "api-contract", data: { endpoints: [{ method: "POST", path: "/login" }] }, contractId },
          },
        ],
      };
    }
    if (last.name === "mcp__teamhub__artifact_publish") return { tools: [{ name: "mcp__teamhub__contract_get", input: { id: contractId } }] };
    return { text: `published; contract ${contractId} is ${JSON.parse(last.text).status}` };
  };
}

async function runWith(mcpServer: Record<string, unknown>, artifactId: string, contractId: string) {
  await api(hub, "POST", "/api/contracts", {
    id: contractId,
    title: "Build the auth API",
    assignee: "api-dev",
    expectedOutputs: [{ artifactType: "api-contract", artifactId }],
  });
  const fake: FakeApi = await startFakeApi(script(artifactId, contractId));
  try {
    const env = claudeEnv(fake.url);
    const configFile = path.join(env.HOME, "mcp.json");
    fs.writeFileSync(configFile, JSON.stringify({ mcpServers: { teamhub: mcpServer } }));
    const work = fs.mkdtempSync(path.join(env.TMPDIR, "work-"));
    const run = await runClaude(
      [
        "-p",
        "Publish the auth API contract for your contract.",
        "--output-format",
        "json",
        "--mcp-config",
        configFile,
        "--strict-mcp-config",
        "--allowedTools",
        "mcp__teamhub__artifact_publish,mcp__teamhub__contract_get",
      ],
      env,
      work,
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    return { result: JSON.parse(run.stdout) as { result: string; is_error: boolean }, fake };
  } finally {
    await fake.close();
  }
}

describe("the real claude CLI as an MCP client", () => {
  it("publishes as its member over /mcp and the waiting contract completes", async () => {
    const { result, fake } = await runWith(
      { type: "http", url: `${hub.url}/mcp`, headers: { Authorization: `Bearer ${token}` } },
      "auth-api-http",
      "build-auth-http",
    );
    expect(result).toMatchObject({ is_error: false, result: "published; contract build-auth-http is completed" });
    expect(fake.requests.some((r) => toolResults(r).some((t) => t.name === "mcp__teamhub__artifact_publish" && !t.isError))).toBe(true);
    expect(
      query(hub.dbFile, `SELECT v.publisher, v.contractId FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk WHERE a.id = 'auth-api-http'`),
    ).toEqual([{ publisher: "api-dev", contractId: "build-auth-http" }]);
    expect((await api(hub, "GET", "/api/contracts/build-auth-http")).body).toMatchObject({
      status: "completed",
      outputs: [{ artifactId: "auth-api-http", version: 1 }],
    });
  }, 120_000);

  it("does the same through `teamhub mcp` over stdio", async () => {
    const { result } = await runWith(
      { type: "stdio", command: process.execPath, args: [BIN, "mcp"], env: { TEAMHUB_DATA_DIR: hub.dataDir, TEAMHUB_TOKEN: token } },
      "auth-api-stdio",
      "build-auth-stdio",
    );
    expect(result).toMatchObject({ is_error: false, result: "published; contract build-auth-stdio is completed" });
    expect(query(hub.dbFile, `SELECT v.publisher FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk WHERE a.id = 'auth-api-stdio'`)).toEqual([
      { publisher: "api-dev" },
    ]);
    expect((await api(hub, "GET", "/api/contracts/build-auth-stdio")).body.status).toBe("completed");
  }, 120_000);
});
