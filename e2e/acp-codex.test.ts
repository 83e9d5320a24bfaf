/**
 * The real codex-acp, driven through the hub's ACP client (server/supervisor/acp/connection.ts) against the
 * fake Responses API: what the groundwork for Codex members (docs/runtimes.md) relies on.
 */
import fs from "node:fs";
import path from "node:path";
import type { RequestPermissionRequest, RequestPermissionResponse, SessionNotification } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../server/testing/temp-dir.ts";
import { resolveCodexBin } from "../server/supervisor/acp/codex-bin.ts";
import { writeCodexHome } from "../server/supervisor/acp/codex-home.ts";
import { rolloutFile, sessionTokens } from "../server/supervisor/acp/codex-usage.ts";
import { startCodexAcp, type CodexAcp } from "../server/supervisor/acp/connection.ts";
import { directiveModel } from "./fake-openai/directives.ts";
import { startEchoMcp, type EchoMcp } from "./helpers/echo-mcp.ts";
import { toolOutputs } from "./fake-openai/request.ts";
import { startFakeOpenAi, type FakeOpenAi } from "./fake-openai/server.ts";

let api: FakeOpenAi;
let mcp: EchoMcp;
const started: CodexAcp[] = [];

beforeAll(async () => {
  api = await startFakeOpenAi(directiveModel);
  mcp = await startEchoMcp();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});
afterAll(async () => {
  await Promise.all([api.close(), mcp.close()]);
});

type Answer = "approve" | "deny";

/** A codex-acp with its own CODEX_HOME and work dir, whose permission requests get `answer`. */
async function codex(answer: Answer = "approve") {
  const dir = tempDir("acp-codex");
  const home = path.join(dir, "codex-home");
  const work = path.join(dir, "work");
  fs.mkdirSync(work);
  const operatorToml = [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    // Every command that is not known to be read-only asks first, so a test sees the permission request.
    'approval_policy = "untrusted"',
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = "${api.url}"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
  ].join("\n");
  writeCodexHome(home, { mcpUrl: mcp.url, tokenEnvVar: "TEAMHUB_TOKEN", operatorToml });
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const onPermission = async (request: RequestPermissionRequest): Promise<RequestPermissionResponse> => {
    permissions.push(request);
    const kinds = answer === "approve" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
    const option = request.options.find((o) => kinds.includes(o.kind));
    return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
  };
  const acp = await startCodexAcp(
    {
      bin: resolveCodexBin({}),
      codexHome: home,
      cwd: work,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, FAKE_OPENAI_KEY: "sk-fake", TEAMHUB_TOKEN: "member-token" },
    },
    { onUpdate: (n) => updates.push(n), onPermission },
  );
  started.push(acp);
  const { sessionId } = await acp.newSession(work);
  const text = () =>
    updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
  return { acp, sessionId, work, home, updates, permissions, text };
}

describe("codex-acp through the ACP client", () => {
  it("answers a text turn with the model's text, its tokens in codex's rollout", async () => {
    const c = await codex();
    const result = await c.acp.prompt(c.sessionId, "@usage 120 30\n@reply hello from the fake");
    expect(result.stopReason).toBe("end_turn");
    expect(c.text()).toContain("hello from the fake");
    expect(api.tokens).toContain("sk-fake");
    // The turn's tokens are codex's own count in its rollout, not ACP's usage_update (context use).
    const rollout = rolloutFile(c.home, c.sessionId);
    expect(rollout).toBeDefined();
    expect(sessionTokens(fs.readFileSync(rollout!, "utf8"))).toEqual({ input: 120, cachedInput: 0, output: 30, reasoningOutput: 0 });
  });

  it("runs a shell command the hub approves", async () => {
    const c = await codex("approve");
    const result = await c.acp.prompt(c.sessionId, "@shell touch approved.txt\n@reply done");
    expect(c.permissions.length).toBeGreaterThan(0);
    expect(result.stopReason).toBe("end_turn");
    expect(fs.existsSync(path.join(c.work, "approved.txt")), `what the command answered: ${JSON.stringify(toolOutputs(api.requests.at(-1)!))}`).toBe(true);
  });

  it("does not run a shell command the hub denies, and the turn ends cancelled", async () => {
    const c = await codex("deny");
    const result = await c.acp.prompt(c.sessionId, "@shell touch denied.txt\n@reply done");
    expect(c.permissions.length).toBeGreaterThan(0);
    expect(result.stopReason).toBe("cancelled");
    expect(fs.existsSync(path.join(c.work, "denied.txt"))).toBe(false);
  });

  it("calls the hub's MCP server's tools with the member's token", async () => {
    const c = await codex();
    const result = await c.acp.prompt(c.sessionId, '@mcp echo {"text":"over mcp"}');
    expect(result.stopReason).toBe("end_turn");
    expect(mcp.echoed).toEqual(["over mcp"]);
    expect(new Set(mcp.tokens)).toEqual(new Set(["member-token"]));
    expect(c.text()).toContain("echo: over mcp");
  });

  it("says which binary could not start", async () => {
    const dir = tempDir("acp-codex-bad");
    const bin = path.join(dir, "no-such-codex-acp");
    await expect(
      startCodexAcp(
        { bin, codexHome: dir, cwd: dir, env: {} },
        { onUpdate: () => {}, onPermission: () => Promise.resolve({ outcome: { outcome: "cancelled" } }) },
      ),
    ).rejects.toThrow(`codex-acp could not start (${bin}): spawn ${bin} ENOENT`);
  });
});
