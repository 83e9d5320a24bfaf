import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../testing/temp-dir.ts";
import { codexConfigToml, writeCodexHome } from "./codex-home.ts";

const HUB = { mcpUrl: "http://127.0.0.1:3000/mcp", tokenEnvVar: "TEAMHUB_TOKEN" };

describe("codex-home", () => {
  it("names the hub's MCP server with the variable holding the token, never the token", () => {
    expect(parse(codexConfigToml(HUB))).toEqual({ mcp_servers: { teamhub: { url: HUB.mcpUrl, bearer_token_env_var: "TEAMHUB_TOKEN" } } });
  });

  it("merges TEAMHUB_CODEX_CONFIG under the hub's server: the operator's tables stay, the hub's teamhub entry wins", () => {
    const operatorToml = [
      'model = "gpt-5"',
      'model_provider = "fake"',
      "[model_providers.fake]",
      'base_url = "http://127.0.0.1:9/v1"',
      'env_key = "FAKE_KEY"',
      'wire_api = "responses"',
      "[mcp_servers.other]",
      'command = "other-mcp"',
      "[mcp_servers.teamhub]",
      'url = "http://elsewhere/mcp"',
      "startup_timeout_sec = 5",
    ].join("\n");
    expect(parse(codexConfigToml({ ...HUB, operatorToml }))).toEqual({
      model: "gpt-5",
      model_provider: "fake",
      model_providers: { fake: { base_url: "http://127.0.0.1:9/v1", env_key: "FAKE_KEY", wire_api: "responses" } },
      mcp_servers: { other: { command: "other-mcp" }, teamhub: { url: HUB.mcpUrl, bearer_token_env_var: "TEAMHUB_TOKEN", startup_timeout_sec: 5 } },
    });
  });

  it("escapes what it writes: quotes, backslashes, newlines and TOML syntax in values come back unchanged", () => {
    const mcpUrl = 'http://h/mcp?a="b"\\c\nd]\n[evil]\nx = 1';
    const toml = codexConfigToml({ ...HUB, mcpUrl });
    expect(parse(toml)).toEqual({ mcp_servers: { teamhub: { url: mcpUrl, bearer_token_env_var: "TEAMHUB_TOKEN" } } });
  });

  it("refuses TEAMHUB_CODEX_CONFIG that is not TOML, naming it", () => {
    expect(() => codexConfigToml({ ...HUB, operatorToml: "model = " })).toThrow(/TEAMHUB_CODEX_CONFIG is not valid TOML/);
  });

  it("writes config.toml into a private CODEX_HOME", () => {
    const home = path.join(tempDir("codex-home"), "codex");
    writeCodexHome(home, HUB);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    const file = path.join(home, "config.toml");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parse(fs.readFileSync(file, "utf8"))).toEqual(parse(codexConfigToml(HUB)));
  });
});
