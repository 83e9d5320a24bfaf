/**
 * `teamhub setup` against a temporary project and a temporary Claude config directory: with the
 * real `claude` binary (claude mcp add) and without one (the config file is written directly).
 * Setup registers a working token, re-running changes nothing, --uninstall removes exactly what
 * setup added.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUIDE_BEGIN } from "../lib/guides.ts";
import { startHub, type HubProcess } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { files, runSetup, sandbox, type Sandbox } from "./helpers/setup-sandbox.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

const claudeJson = (config: string) => JSON.parse(fs.readFileSync(path.join(config, ".claude.json"), "utf8"));
const tokenOf = (entry: { headers: { Authorization: string } }) => entry.headers.Authorization.replace("Bearer ", "");

async function actsAs(token: string): Promise<string | null> {
  try {
    const client = await httpClient(hub.url, token);
    const you = (await call(client, "server_version")).structuredContent!.you as string;
    await client.close();
    return you;
  } catch {
    return null;
  }
}

function setup(box: Sandbox, withClaude: boolean, ...args: string[]) {
  const r = runSetup(hub.dataDir, box, withClaude, ...args);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return r.stdout;
}

describe("teamhub setup", () => {
  it("registers through `claude mcp add`, is idempotent, and uninstalls exactly", async () => {
    const box = sandbox();
    expect(setup(box, true, "--local", "--guide")).toContain("claude mcp add --scope local --transport http teamhub");
    expect(files(box.project)).toEqual(["CLAUDE.md"]);
    const entry = claudeJson(box.config).projects[box.project].mcpServers.teamhub;
    expect(entry).toMatchObject({ type: "http", url: `${hub.url}/mcp`, headers: { Authorization: expect.stringMatching(/^Bearer thm_/) } });
    expect(await actsAs(tokenOf(entry))).toBe("claude-code");

    setup(box, true, "--local", "--guide");
    const again = claudeJson(box.config).projects[box.project].mcpServers;
    expect(Object.keys(again)).toEqual(["teamhub"]);
    expect(await actsAs(tokenOf(entry))).toBeNull();
    expect(await actsAs(tokenOf(again.teamhub))).toBe("claude-code");
    expect(fs.readFileSync(path.join(box.project, "CLAUDE.md"), "utf8").split(GUIDE_BEGIN)).toHaveLength(2);

    expect(setup(box, true, "--local", "--uninstall")).toContain("token: revoked 1");
    expect(files(box.project)).toEqual([]);
    expect(claudeJson(box.config).projects[box.project]?.mcpServers?.teamhub).toBeUndefined();
    expect(await actsAs(tokenOf(again.teamhub))).toBeNull();
  }, 120_000);

  it("writes and removes the config entry itself when there is no claude binary, keeping the user's files intact", async () => {
    const box = sandbox();
    const mine = "# My project\n\nUse tabs.\n";
    fs.writeFileSync(path.join(box.project, "CLAUDE.md"), mine);
    expect(setup(box, false, "--local", "--guide")).toContain(`wrote teamhub into ${path.join(box.config, ".claude.json")}`);
    expect(files(box.config)).toEqual([".claude.json"]);
    expect(Object.keys(claudeJson(box.config).projects[box.project].mcpServers)).toEqual(["teamhub"]);
    const md = fs.readFileSync(path.join(box.project, "CLAUDE.md"), "utf8");
    expect(md.startsWith(mine)).toBe(true);
    expect(md).toContain("# Working as the orchestrator of a Team Hub team");

    setup(box, false, "--local", "--uninstall");
    expect(files(box.config)).toEqual([]);
    expect(fs.readFileSync(path.join(box.project, "CLAUDE.md"), "utf8")).toBe(mine);
  });

  it("does the same for all projects with --global", async () => {
    const box = sandbox();
    setup(box, false, "--global", "--guide");
    expect(files(box.config)).toEqual([".claude.json", "CLAUDE.md"]);
    const entry = claudeJson(box.config).mcpServers.teamhub;
    expect(await actsAs(tokenOf(entry))).toBe("claude-code");
    setup(box, false, "--global", "--uninstall");
    expect(files(box.config)).toEqual([]);
    expect(files(box.project)).toEqual([]);
    expect(await actsAs(tokenOf(entry))).toBeNull();
  });
});
