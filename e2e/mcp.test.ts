/**
 * The MCP front door with real SDK clients: tools, identity from tokens, resources with
 * subscriptions, completions, prompts and logging, over /mcp and over `teamhub mcp` (stdio).
 */
import fs from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { dbSnapshot, query } from "./helpers/db-snapshot.ts";
import { call, httpClient, stdioClient } from "./helpers/mcp-client.ts";
import { TOOLS } from "../server/mcp/tools.ts";

let hub: HubProcess;
const tokens: Record<string, string> = {};
const clients: Client[] = [];
const open = async (c: Promise<Client>) => {
  const client = await c;
  clients.push(client);
  return client;
};

beforeAll(async () => {
  hub = await startHub();
  for (const name of ["api-dev", "qa-dev"]) tokens[name] = (await api(hub, "POST", "/api/tokens", { name })).body.token;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await hub?.kill();
});

describe("tools", () => {
  it("lists every tool with a description, an input schema and annotations", async () => {
    const client = await open(httpClient(hub.url));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(20);
      expect(t.inputSchema.type).toBe("object");
      expect(t.annotations).toMatchObject({ openWorldHint: false });
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.artifact_list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.team_reset.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect((byName.artifact_publish.inputSchema.properties as Record<string, { description?: string }>).derivedFrom.description).toContain("'id@vN'");
    expect(byName.artifact_publish.inputSchema.additionalProperties).toBe(false);
    // An operation's answer, or its error: the SDK's client holds every structuredContent below to it.
    expect(byName.artifact_publish.outputSchema).toMatchObject({
      type: "object",
      anyOf: [{ required: expect.arrayContaining(["artifactId", "version"]) }, { required: ["error"] }],
    });
    expect(byName.server_version.outputSchema).toBeUndefined();
  });

  it("answers with JSON text and structuredContent", async () => {
    const client = await open(httpClient(hub.url));
    const r = await call(client, "server_version");
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ name: "teamhub", you: "operator", kind: "operator" });
    expect(r.json()).toEqual(r.structuredContent);
  });
});

describe("identity comes from the token", () => {
  it("records a member as publisher and reader, and refuses names in arguments", async () => {
    const apiDev = await open(httpClient(hub.url, tokens["api-dev"]));
    const published = await call(apiDev, "artifact_publish", { id: "api-spec", type: "api-contract", data: { endpoints: [{ method: "GET", path: "/me" }] } });
    expect(published.structuredContent).toMatchObject({ artifactId: "api-spec", version: 1, publisher: "api-dev" });

    const before = dbSnapshot(hub.dbFile);
    for (const [name, args, field] of [
      ["artifact_publish", { id: "api-spec", type: "api-contract", data: { endpoints: [{ method: "GET", path: "/x" }] }, publisher: "qa-dev" }, "publisher"],
      ["artifact_get", { id: "api-spec", reader: "qa-dev" }, "reader"],
      ["contract_create", { id: "sneaky", title: "x", assignee: "qa-dev", assigner: "operator" }, "assigner"],
    ] as const) {
      const r = await call(apiDev, name, args);
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`invalid_input: ${field}: is not an argument of ${name}; you act as 'api-dev'`);
    }
    expect(dbSnapshot(hub.dbFile)).toEqual(before);

    await call(apiDev, "artifact_get", { id: "api-spec" });
    const readers = (await api(hub, "GET", "/api/artifacts/api-spec/readers")).body.readers;
    expect(readers).toEqual([expect.objectContaining({ reader: "api-dev", reads: 1 })]);
  });

  it("lets only the assignee (or an operator) complete a contract", async () => {
    await api(hub, "POST", "/api/contracts", { id: "qa-task", title: "Test it", assignee: "qa-dev" });
    const apiDev = await open(httpClient(hub.url, tokens["api-dev"]));
    const refused = await call(apiDev, "contract_complete", { id: "qa-task" });
    expect(refused.text).toBe(
      "forbidden: 'api-dev' (member) may not complete contract 'qa-task' (assignee 'qa-dev'): only its assignee, a lead of team 'default' or the operator may",
    );
    expect((await api(hub, "GET", "/api/contracts/qa-task")).body.status).toBe("ready");
    const qaDev = await open(httpClient(hub.url, tokens["qa-dev"]));
    expect((await call(qaDev, "contract_complete", { id: "qa-task", summary: "done" })).structuredContent).toMatchObject({ status: "completed" });
  });

  it("refuses an unknown token, and a session used with another principal's token", async () => {
    await expect(httpClient(hub.url, "thm_forged")).rejects.toThrow(/401|Unauthorized/);
    const init = await fetch(`${hub.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens["api-dev"]}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const session = init.headers.get("mcp-session-id")!;
    const hijack = await fetch(`${hub.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens["qa-dev"]}`,
        "mcp-session-id": session,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(403);
    expect((await hijack.json()).error.message).toBe("This session belongs to 'api-dev', not 'qa-dev'");
  });

  it("refuses a missing token when tokens are required", async () => {
    const strict = await startHub(undefined, { TEAMHUB_REQUIRE_TOKEN: "1" });
    try {
      await expect(httpClient(strict.url)).rejects.toThrow(/401|Unauthorized/);
      const token = (
        await api(
          strict,
          "POST",
          "/api/tokens",
          { name: "ops" },
          { authorization: `Bearer ${fs.readFileSync(`${strict.dataDir}/operator-token`, "utf8").trim()}` },
        )
      ).body.token;
      const client = await httpClient(strict.url, token);
      expect((await call(client, "server_version")).structuredContent).toMatchObject({ you: "ops", kind: "member" });
      await client.close();
    } finally {
      await strict.kill();
    }
  });
});

describe("resources, completions, prompts, logging", () => {
  it("notifies a subscriber of a new artifact version and of a contract change", async () => {
    const client = await open(httpClient(hub.url, tokens["qa-dev"]));
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: "teamhub://teams/default/artifacts/api-spec" });
    await client.subscribeResource({ uri: "teamhub://teams/default/contracts/qa-task" });
    await expect(client.subscribeResource({ uri: "test://watched-resource" })).rejects.toThrow(/Cannot subscribe/);
    await api(hub, "POST", "/api/artifacts", { id: "api-spec", type: "api-contract", data: { endpoints: [{ method: "GET", path: "/v2" }] } });
    await api(hub, "POST", "/api/contracts/qa-task/reopen", { reason: "again" });
    await expect.poll(() => updated.length).toBeGreaterThanOrEqual(2);
    expect(updated).toEqual(["teamhub://teams/default/artifacts/api-spec", "teamhub://teams/default/contracts/qa-task"]);

    const read = await client.readResource({ uri: "teamhub://teams/default/artifacts/api-spec/versions/1" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ version: 1, publisher: "api-dev", data: { endpoints: [{ path: "/me" }] } });
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(expect.arrayContaining(["teamhub://teams/default/artifacts/api-spec", "teamhub://teams/default/contracts/qa-task"]));
  });

  it("completes artifact, contract, pipeline and snapshot ids", async () => {
    await api(hub, "POST", "/api/pipelines", {
      id: "ping-pipe",
      rules: [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "x" } }],
    });
    await api(hub, "POST", "/api/snapshots", { id: "snap-one" });
    const client = await open(httpClient(hub.url));
    const complete = async (kind: string, value: string) =>
      (await client.complete({ ref: { type: "ref/resource", uri: `teamhub://teams/{team}/${kind}/{id}` }, argument: { name: "id", value } })).completion.values;
    expect(await complete("artifacts", "api")).toEqual(["api-spec"]);
    expect(await complete("contracts", "qa")).toEqual(["qa-task"]);
    expect(await complete("pipelines", "pi")).toEqual(["ping-pipe"]);
    expect(await complete("snapshots", "snap")).toEqual(["snap-one"]);
    const teams = await client.complete({ ref: { type: "ref/prompt", name: "worker-guide" }, argument: { name: "team", value: "de" } });
    expect(teams.completion.values).toEqual(["default"]);
  });

  it("serves the guides as prompts and logs tool calls at the chosen level", async () => {
    const client = await open(httpClient(hub.url, tokens["api-dev"]));
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["orchestrator-guide", "worker-guide"]);
    const guide = await client.getPrompt({ name: "worker-guide", arguments: { member: "api-dev", role: "backend" } });
    expect(guide.messages[0].content).toMatchObject({ type: "text", text: expect.stringContaining("You are **api-dev** (backend)") });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await client.setLoggingLevel("info");
    await call(client, "artifact_list");
    await expect.poll(() => logs.length).toBeGreaterThan(0);
    expect(logs[0]).toBe("artifact_list by api-dev: ok");
  });
});

describe("teamhub mcp over stdio", () => {
  it("acts as its token's member on the same database, and the running hub sees it", async () => {
    const watcher = await open(httpClient(hub.url));
    const updated: string[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await watcher.subscribeResource({ uri: "teamhub://teams/default/artifacts/stdio-doc" });

    const client = await open(stdioClient(hub.dataDir, tokens["qa-dev"]));
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
    const r = await call(client, "artifact_publish", { id: "stdio-doc", type: "custom", data: { via: "stdio" } });
    expect(r.structuredContent).toMatchObject({ artifactId: "stdio-doc", version: 1, publisher: "qa-dev" });
    expect((await call(client, "artifact_publish", { id: "x", type: "custom", data: {}, publisher: "api-dev" })).isError).toBe(true);
    expect(
      query<{ publisher: string }>(hub.dbFile, `SELECT v.publisher FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk WHERE a.id = 'stdio-doc'`),
    ).toEqual([{ publisher: "qa-dev" }]);
    await call(client, "artifact_publish", { id: "stdio-doc", type: "custom", data: { via: "stdio", v: 2 } });
    await expect.poll(() => updated).toContain("teamhub://teams/default/artifacts/stdio-doc");
  });
});
