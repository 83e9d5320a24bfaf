/**
 * The continuity hooks in the real, pinned `claude` CLI: after `teamhub setup --local --hooks`
 * in a project, `claude -p` runs the SessionStart hook, and the briefing it prints reaches the
 * model's request (seen by the fake Messages API); the Stop and SessionEnd hooks record their
 * checkpoints as the member setup made.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeApi, type FakeApi } from "./fake-anthropic/server.ts";
import { claudeEnv, runClaude } from "./helpers/claude.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";
import { runSetup } from "./helpers/setup-sandbox.ts";
import { workTree } from "./helpers/work-tree.ts";

let hub: HubProcess;
let fake: FakeApi;
beforeAll(async () => {
  hub = await startHub();
  fake = await startFakeApi(() => ({ text: "Noted." }));
});
afterAll(async () => {
  await fake?.close();
  await hub?.kill();
});

describe("the hooks in a real Claude Code session", () => {
  it("injects the SessionStart briefing into the model's context and checkpoints the session", async () => {
    const env = claudeEnv(fake.url);
    const tree = workTree();
    tree.write("README.md", "# project\n");
    tree.commit("start");
    const setup = runSetup(hub.dataDir, { root: env.HOME, project: tree.dir, config: env.CLAUDE_CONFIG_DIR }, false, "--local", "--hooks");
    expect(setup.code, setup.stderr).toBe(0);
    await api(hub, "POST", "/api/contracts", { id: "write-api-docs", title: "Document the auth endpoints", assignee: "claude-code" });

    const run = await runClaude(["-p", "What should I work on?", "--output-format", "json"], env, tree.dir, 90_000);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, result: "Noted." });

    const sent = fake.requests.map((r) => JSON.stringify(r));
    const briefed = sent.filter((text) => text.includes("Team Hub briefing for claude-code"));
    expect(briefed.length, sent.join("\n").slice(0, 2000)).toBeGreaterThan(0);
    expect(briefed[0]).toContain('- write-api-docs \\"Document the auth endpoints\\": now ready');
    // The settings file setup wrote is kept out of git, so the clean work tree has nothing to report.
    expect(briefed[0]).not.toContain("Files changed in the work tree");

    const kinds = query<{ kind: string }>(hub.dbFile, `SELECT kind FROM Checkpoint WHERE principal = 'claude-code' ORDER BY id`).map((c) => c.kind);
    expect(kinds.slice(0, 2)).toEqual(["session_start", "stop"]);
  }, 180_000);
});
