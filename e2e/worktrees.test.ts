/**
 * Work trees with the real `claude` CLI in its sandbox and a real git
 * repository: two members edit the same file in parallel (the fake model calls Read and Edit) without
 * seeing each other's change; one is merged; the other's merge reports the conflict on that file
 * before anything is written; after the member edits again it merges. Also over the CLI: `teamhub changes`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api, cli } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join("\n")}\n`;

let sh: SessionHub;
let repo: WorkTree;

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", text(LINES));
  repo.commit("start");
  expect((await api(sh.hub, "PATCH", "/api/teams/wt/settings", { gateEnforcement: "off" })).status).toBe(200);
});
afterAll(async () => sh?.close());

/** One turn of the scripted model, waited for; the reply says every tool result. */
async function turn(name: string, directives: string[]): Promise<string> {
  const r = await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: directives.join("\n"), wait: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.interaction.status, JSON.stringify(r.body.interaction)).toBe("completed");
  return r.body.interaction.response;
}

describe("two members edit the same file in their own work trees", () => {
  it("merges one, reports the other's conflict before writing, and merges it once the member resolved it", async () => {
    const dirs: Record<string, string> = {};
    for (const name of ["alice", "bob"]) {
      const r = await api(sh.hub, "POST", "/api/team-spawn", { team: "wt", name, role: "dev", workDir: sh.work });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.worktree).toMatchObject({ branch: `teamhub/wt/${name}`, baseBranch: "main" });
      dirs[name] = r.body.workDir;
      await waitForSession(sh.hub, name, (s) => s.status === "idle");
    }
    const file = (name: string) => path.join(dirs[name], "app.txt");
    // In parallel: each reads the file and changes line 2 its own way.
    await Promise.all(["alice", "bob"].map((name) => turn(name, [`@read ${file(name)}`, `@edit ${file(name)}|line 2|line 2 by ${name}`, `@reply edited`])));
    expect(fs.readFileSync(file("alice"), "utf8")).toBe(text(LINES.map((l, i) => (i === 1 ? "line 2 by alice" : l))));
    expect(fs.readFileSync(file("bob"), "utf8")).toBe(text(LINES.map((l, i) => (i === 1 ? "line 2 by bob" : l))));
    expect(fs.readFileSync(path.join(sh.work, "app.txt"), "utf8")).toBe(text(LINES));

    // The hub sees each one's change, and flags the file both changed.
    const changes = await api(sh.hub, "GET", "/api/sessions/alice/changes");
    expect(changes.body.files).toMatchObject([{ path: "app.txt", additions: 1, deletions: 1, change: "modified" }]);
    const changed = cli(sh.hub.dataDir, ["changes", "bob"]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain("M +1 −1\tapp.txt");
    const overlaps = await api(sh.hub, "GET", "/api/worktree-overlaps?team=wt");
    expect(overlaps.body.files).toMatchObject([{ path: "app.txt", sessions: ["alice", "bob"] }]);

    const merged = await api(sh.hub, "POST", "/api/sessions/alice/merge", {});
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ outcome: "merged", baseBranch: "main" });
    expect(fs.readFileSync(path.join(sh.work, "app.txt"), "utf8")).toContain("line 2 by alice");

    const refs = repo.git("for-each-ref", "--format=%(refname) %(objectname)");
    const refused = await api(sh.hub, "POST", "/api/sessions/bob/merge", {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "conflict", details: { conflicts: [{ path: "app.txt" }] } });
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
    expect(repo.status()).toBe("");

    // Bob takes alice's line 2 and moves his own change to line 9: now it merges.
    await turn("bob", [`@edit ${file("bob")}|line 2 by bob|line 2 by alice`, `@edit ${file("bob")}|line 9|line 9 by bob`, `@reply resolved`]);
    const second = await api(sh.hub, "POST", "/api/sessions/bob/merge", { mode: "squash" });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(fs.readFileSync(path.join(sh.work, "app.txt"), "utf8")).toBe(
      text(LINES.map((l, i) => (i === 1 ? "line 2 by alice" : i === 8 ? "line 9 by bob" : l))),
    );
    expect(repo.status()).toBe("");
  });
});
