/**
 * A Codex member in its own git work tree (docs/worktrees.md, docs/runtimes.md): team-spawned in a repository, it
 * works on its own branch in the sandbox; what it writes is there and not in the main checkout, and the hub sees it
 * as the member's changes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCodexHub, type CodexHub } from "./helpers/codex.ts";
import { api } from "./helpers/hub-process.ts";
import { waitForSession } from "./helpers/session-hub.ts";
import { workTree } from "./helpers/work-tree.ts";

let sh: CodexHub;
beforeAll(async () => {
  sh = await startCodexHub();
  const repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "one\n");
  repo.commit("start");
});
afterAll(async () => sh?.close());

describe("a Codex member in its own work tree", () => {
  it("writes on its own branch, not in the main checkout, and its changes are the member's", async () => {
    const r = await api(sh.hub, "POST", "/api/team-spawn", { team: "cxwt", name: "cx-tree", role: "dev", runtime: "codex", preset: "full", workDir: sh.work });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.worktree).toMatchObject({ branch: "teamhub/cxwt/cx-tree", baseBranch: "main" });
    const dir = r.body.workDir as string;
    expect(dir).not.toBe(sh.work);
    await waitForSession(sh.hub, "cx-tree", (s) => s.status === "idle");

    const sent = await api(sh.hub, "POST", "/api/sessions/cx-tree/send", { message: "@shell sh -c 'echo two >> app.txt && pwd'\n@reply edited", wait: true });
    expect(sent.body.interaction).toMatchObject({ status: "completed", response: "edited" });
    expect(fs.readFileSync(path.join(dir, "app.txt"), "utf8")).toBe("one\ntwo\n");
    expect(fs.readFileSync(path.join(sh.work, "app.txt"), "utf8")).toBe("one\n");
    const changes = (await api(sh.hub, "GET", "/api/sessions/cx-tree/changes")).body;
    expect(changes.files).toMatchObject([{ path: "app.txt", additions: 1, deletions: 0, change: "modified" }]);
  }, 90_000);
});
