/**
 * `teamhub setup --hooks` against a temporary project and Claude config directory: the four
 * continuity hooks go into Claude Code's settings with the setup's own token and run this
 * project's CLI; re-running replaces them in place (renewing their token even without --hooks);
 * --uninstall removes exactly them, leaving
 * the user's hooks and settings byte for byte, and deletes only files and directories setup made.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";
import { files, runSetup, sandbox, type Sandbox } from "./helpers/setup-sandbox.ts";
import { workTree } from "./helpers/work-tree.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

const EVENTS = ["SessionStart", "Stop", "PreCompact", "SessionEnd"];
type Group = { matcher?: string; hooks: Array<{ type: string; command: string; timeout?: number }> };

function setup(box: Sandbox, ...args: string[]) {
  const r = runSetup(hub.dataDir, box, false, ...args);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return r.stdout;
}

const localSettings = (box: Sandbox) => path.join(box.project, ".claude", "settings.local.json");
const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as { hooks: Record<string, Group[]> } & Record<string, unknown>;
const mcpToken = (box: Sandbox) =>
  JSON.parse(fs.readFileSync(path.join(box.config, ".claude.json"), "utf8")).projects[box.project].mcpServers.teamhub.headers.Authorization.slice(
    "Bearer ".length,
  );
const q = (s: string) => `'${s}'`;

/** Runs a hook command the way Claude Code does: through a shell, hook JSON on stdin. */
function runCommand(command: string, input: unknown) {
  // Nothing of ours inherited: the command alone must say which hub and which token.
  const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
  const r = spawnSync("sh", ["-c", command], { input: JSON.stringify(input), encoding: "utf8", env: env as NodeJS.ProcessEnv, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const USER_SETTINGS = {
  permissions: { allow: ["Bash(npm test)"] },
  hooks: {
    Stop: [{ hooks: [{ type: "command", command: "notify-send 'Claude is done'" }] }],
    PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write" }] }],
  },
};

describe("teamhub setup --hooks", () => {
  it("adds the four hooks next to the user's, with the setup's token, runs them, and uninstalls exactly", async () => {
    const box = sandbox();
    const file = localSettings(box);
    fs.mkdirSync(path.dirname(file));
    const original = `${JSON.stringify(USER_SETTINGS, null, 4)}\n`;
    fs.writeFileSync(file, original);
    fs.chmodSync(file, 0o644);

    expect(setup(box, "--local", "--hooks")).toContain(`hooks: updated ${file} (SessionStart, Stop, PreCompact, SessionEnd)`);
    const installed = read(file);
    expect(fs.statSync(file).mode & 0o777, "the token is readable by its user only").toBe(0o600);
    expect(installed.permissions).toEqual(USER_SETTINGS.permissions);
    expect(installed.hooks.PostToolUse).toEqual(USER_SETTINGS.hooks.PostToolUse);
    expect(Object.keys(installed.hooks)).toEqual(["Stop", "PostToolUse", "SessionStart", "PreCompact", "SessionEnd"]);
    expect(installed.hooks.Stop[0]).toEqual(USER_SETTINGS.hooks.Stop[0]);
    const token = mcpToken(box);
    for (const [event, arg] of [
      ["SessionStart", "session-start"],
      ["Stop", "stop"],
      ["PreCompact", "pre-compact"],
      ["SessionEnd", "session-end"],
    ]) {
      const ours = installed.hooks[event].at(-1)!;
      expect(ours).toEqual({
        hooks: [
          {
            type: "command",
            command: `TEAMHUB_TOKEN=${q(token)} ${q(process.execPath)} ${q(path.join(ROOT, "bin", "teamhub.mjs"))} hook ${arg} --url ${q(hub.url)} --team 'default'`,
            timeout: 30,
          },
        ],
      });
    }

    const stop = runCommand(installed.hooks.Stop[1].hooks[0].command, { session_id: "s-1", cwd: box.project, hook_event_name: "Stop" });
    expect(stop).toEqual({ code: 0, stdout: "{}\n", stderr: "" });
    expect(query(hub.dbFile, `SELECT principal, kind FROM Checkpoint WHERE claudeSessionId = 's-1'`)).toEqual([{ principal: "claude-code", kind: "stop" }]);
    const start = runCommand(installed.hooks.SessionStart[0].hooks[0].command, {
      session_id: "s-2",
      cwd: box.project,
      hook_event_name: "SessionStart",
      source: "startup",
    });
    expect(JSON.parse(start.stdout).hookSpecificOutput.additionalContext).toContain("# Team Hub briefing for claude-code (team default)");

    setup(box, "--local", "--hooks");
    const again = read(file);
    for (const event of EVENTS) expect(again.hooks[event].filter((g) => g.hooks[0].command.includes("teamhub.mjs"))).toHaveLength(1);
    expect(again.hooks.Stop[0]).toEqual(USER_SETTINGS.hooks.Stop[0]);
    expect(again.hooks.Stop[1].hooks[0].command).toContain(`TEAMHUB_TOKEN=${q(mcpToken(box))}`);
    expect(mcpToken(box)).not.toBe(token);
    setup(box, "--local");
    expect(read(file).hooks.SessionEnd[0].hooks[0].command).toContain(`TEAMHUB_TOKEN=${q(mcpToken(box))}`);

    expect(setup(box, "--local", "--uninstall")).toContain(`hooks: removed 4 hook entries from ${file}`);
    expect(fs.readFileSync(file, "utf8")).toBe(original);
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(files(hub.dataDir).filter((f) => f.startsWith("claude-setup"))).toEqual([]);
  }, 120_000);

  it("creates .claude/settings.local.json when there is none (private to the user) and removes it and the directory again", async () => {
    const box = sandbox();
    setup(box, "--local", "--hooks", "--guide");
    expect(files(box.project)).toEqual([".claude/settings.local.json", "CLAUDE.md"]);
    expect(fs.statSync(localSettings(box)).mode & 0o777).toBe(0o600);
    expect(Object.keys(read(localSettings(box)).hooks)).toEqual(EVENTS);
    setup(box, "--local", "--uninstall");
    expect(fs.readdirSync(box.project)).toEqual([]);
  }, 60_000);

  it("keeps a .claude directory and a settings file the user already had, even when they end up empty", async () => {
    const box = sandbox();
    fs.mkdirSync(path.join(box.project, ".claude"));
    setup(box, "--local", "--hooks");
    setup(box, "--local", "--uninstall");
    expect(fs.readdirSync(path.join(box.project, ".claude"))).toEqual([]);

    fs.writeFileSync(localSettings(box), "{}\n");
    setup(box, "--local", "--hooks");
    setup(box, "--local", "--uninstall");
    expect(fs.readFileSync(localSettings(box), "utf8")).toBe("{}\n");
  }, 60_000);

  it("keeps the token-bearing settings file out of git commits, and takes that back exactly", async () => {
    const box = sandbox();
    const tree = workTree(box.project);
    const exclude = path.join(box.project, ".git", "info", "exclude");
    const before = fs.readFileSync(exclude, "utf8");
    setup(box, "--local", "--hooks");
    expect(fs.readFileSync(exclude, "utf8")).toBe(`${before}/.claude/settings.local.json\n`);
    expect(tree.status()).toBe("");
    setup(box, "--local", "--hooks");
    expect(fs.readFileSync(exclude, "utf8").match(/settings\.local\.json/g)).toHaveLength(1);
    setup(box, "--local", "--uninstall");
    expect(fs.readFileSync(exclude, "utf8")).toBe(before);

    fs.writeFileSync(path.join(box.project, ".gitignore"), ".claude/\n");
    setup(box, "--local", "--hooks");
    expect(fs.readFileSync(exclude, "utf8")).toBe(before);
    setup(box, "--local", "--uninstall");
  }, 60_000);

  it("uses $CLAUDE_CONFIG_DIR/settings.json with --global", async () => {
    const box = sandbox();
    setup(box, "--global", "--hooks");
    expect(files(box.config)).toEqual([".claude.json", "settings.json"]);
    expect(Object.keys(read(path.join(box.config, "settings.json")).hooks)).toEqual(EVENTS);
    setup(box, "--global", "--uninstall");
    expect(files(box.config)).toEqual([]);
  }, 60_000);

  it("makes a world-readable user settings.json private while it holds the token, and gives its mode back", async () => {
    const box = sandbox();
    const file = path.join(box.config, "settings.json");
    const original = `${JSON.stringify({ model: "opus" }, null, 2)}\n`;
    fs.mkdirSync(box.config);
    fs.writeFileSync(file, original);
    fs.chmodSync(file, 0o644);
    setup(box, "--global", "--hooks");
    setup(box, "--global", "--hooks");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    setup(box, "--global", "--uninstall");
    expect(fs.readFileSync(file, "utf8")).toBe(original);
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
  }, 60_000);

  it("refuses a settings file that is not JSON before changing anything", async () => {
    const box = sandbox();
    fs.mkdirSync(path.join(box.project, ".claude"));
    fs.writeFileSync(localSettings(box), "{ not json");
    const r = runSetup(hub.dataDir, box, false, "--local", "--hooks");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${localSettings(box)}: is not valid JSON`);
    expect(fs.readFileSync(localSettings(box), "utf8")).toBe("{ not json");
    expect(files(box.config)).toEqual([]);
  }, 60_000);
});
