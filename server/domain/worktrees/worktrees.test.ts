/**
 * Work trees against real git repositories (docs/worktrees.md): isolation at spawn, changes, merge,
 * discard, prune, overlaps, and every refusal with the repository proved unchanged.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DiscardInput, MergeInput } from "../../../lib/api/worktrees.ts";
import { SpawnInput, TeamSpawnInput } from "../../../lib/api/sessions.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { deleteSession, resumeSession } from "../sessions/control.service.ts";
import { findSession } from "../sessions/sessions.repo.ts";
import { recordExit } from "../sessions/runtime.ts";
import { spawnSession, teamSpawn } from "../sessions/spawn.service.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import { tempDir } from "../../testing/temp-dir.ts";
import { workTree, type WorkTree } from "../../testing/work-tree.ts";
import { overlaps, sessionChanges } from "./changes.service.ts";
import { discardSession, mergeSession } from "./merge.service.ts";
import { leftBranches } from "./left-branches.ts";
import { pruneDeletedWorktrees } from "./prune.ts";
import { GRACE_MS, sweepStrayWorktrees } from "./sweep.ts";
import { TEST_RUNTIMES } from "../../testing/operations.ts";

const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join("\n")}\n`;
const edit = (i: number, to: string, lines = LINES) => text(lines.map((l, j) => (j === i ? to : l)));

let hub: TempHub;
let repo: WorkTree;
let defaults: { workDir: string; sandbox: "bubblewrap"; maxLive: number; worktreesDir: string; runtimes: typeof TEST_RUNTIMES };

beforeEach(async () => {
  hub = await tempHub();
  repo = workTree();
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", text(LINES));
  repo.write("keep.txt", "keep\n");
  repo.commit("start");
  defaults = { workDir: repo.dir, sandbox: "bubblewrap", maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(hub.dir, "worktrees") };
});
afterEach(() => hub.close());

const member = (name: string, extra: Record<string, unknown> = {}) =>
  teamSpawn(hub, OPERATOR, parseOrThrow(TeamSpawnInput, { team: "t", name, ...extra }), defaults);
const spawn = (input: Record<string, unknown>, by: Principal = OPERATOR) => spawnSession(hub, by, parseOrThrow(SpawnInput, { team: "t", ...input }), defaults);
const merge = (input: Record<string, unknown>, by: Principal = OPERATOR) => mergeSession(hub, by, parseOrThrow(MergeInput, input));
const changes = (name: string) => sessionChanges(hub, OPERATOR, { name });
const ended = async (name: string) => {
  const pk = (await hub.db.read((s) => findSession(s, name)))!.pk;
  await recordExit(hub, pk, { status: "stopped", reason: "stopped", code: 0, signal: null, error: null, stderrTail: "" });
};
/** What a refusal must leave as it was: every ref, the main work tree's files and status, the list of work trees. */
const repoState = () => ({
  refs: repo.git("for-each-ref", "--format=%(refname) %(objectname)"),
  status: repo.status(),
  app: fs.readFileSync(path.join(repo.dir, "app.txt"), "utf8"),
  worktrees: repo.git("worktree", "list", "--porcelain"),
});
async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, "the call should have been refused").not.toBeNull();
  return e as { code: string; message: string; details: Record<string, unknown> };
}

describe("isolation", () => {
  it("gives each team member its own work tree on teamhub/<team>/<name> from the checked-out branch", async () => {
    const a = await member("a");
    const b = await member("b");
    expect(a.worktree).toMatchObject({ branch: "teamhub/t/a", baseBranch: "main", baseCommit: repo.git("rev-parse", "main") });
    expect(a.workDir).toBe(a.worktree!.path);
    expect(a.workDir.startsWith(defaults.worktreesDir)).toBe(true);
    expect(
      repo
        .git("branch", "--list", "teamhub/*")
        .split("\n")
        .map((l) => l.replace(/^[*+ ]+/, "")),
    ).toEqual(["teamhub/t/a", "teamhub/t/b"]);
    // Parallel edits of the same file do not see each other.
    fs.writeFileSync(path.join(a.workDir, "app.txt"), edit(1, "A was here"));
    expect(fs.readFileSync(path.join(b.workDir, "app.txt"), "utf8")).toBe(text(LINES));
    expect(fs.readFileSync(path.join(repo.dir, "app.txt"), "utf8")).toBe(text(LINES));
    expect(hub.events.filter((e) => e.type === "worktree.created").map((e) => e.payload.name)).toEqual(["a", "b"]);
  });

  it("keeps plain spawns shared by default, isolates them when asked, and starts from the base branch chosen", async () => {
    expect((await spawn({ name: "plain" })).worktree).toBeNull();
    repo.git("branch", "release");
    const s = await spawn({ name: "iso", isolation: "worktree", base: "release" });
    expect(s.worktree).toMatchObject({ branch: "teamhub/t/iso", baseBranch: "release" });
    // A work dir below the repository's top gets the same subdirectory of the work tree.
    fs.mkdirSync(path.join(repo.dir, "sub"));
    repo.write("sub/x.txt", "x\n");
    repo.commit("sub");
    const sub = await spawn({ name: "deep", isolation: "worktree", workDir: path.join(repo.dir, "sub") });
    expect(sub.workDir).toBe(path.join(sub.worktree!.path!, "sub"));
    expect(fs.readFileSync(path.join(sub.workDir, "x.txt"), "utf8")).toBe("x\n");
  });

  it("refuses a work tree outside a repository, an unknown base and a name git cannot branch, writing nothing", async () => {
    const before = repoState();
    const outside = tempDir("plain");
    const e1 = await refusal(spawn({ name: "out", isolation: "worktree", workDir: outside }));
    expect(e1).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "isolation", rule: "in_repository" }] } });
    const e2 = await refusal(spawn({ name: "nobase", isolation: "worktree", base: "nope" }));
    expect(e2).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "base", rule: "branch_exists" }] } });
    const e3 = await refusal(spawn({ name: "bad.lock", isolation: "worktree" }));
    expect(e3).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "name", rule: "branch_name" }] } });
    const e4 = await refusal(spawn({ name: "sharedbase", isolation: "shared", base: "main" }));
    expect(e4).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "base", rule: "needs_worktree" }] } });
    expect(repoState()).toEqual(before);
    expect(await hub.db.read((s) => s.all(sql`SELECT "name" FROM "Session"`))).toEqual([]);
    expect(fs.existsSync(defaults.worktreesDir) ? fs.readdirSync(defaults.worktreesDir) : []).toEqual([]);
  });

  it("removes the work tree again when the spawning transaction fails", async () => {
    await member("dup");
    const before = repoState();
    // Same session name in another team: the branch is free, the session name is not; the transaction refuses.
    const e = await refusal(teamSpawn(hub, OPERATOR, parseOrThrow(TeamSpawnInput, { team: "u", name: "dup" }), defaults));
    expect(e.code).toBe("conflict");
    expect(repoState()).toEqual(before);
    expect(fs.readdirSync(defaults.worktreesDir)).toHaveLength(1);
  });
});

describe("changes", () => {
  it("lists committed, uncommitted and untracked changes with counts and hunks, and moves nothing", async () => {
    const a = await member("a");
    const git = (...args: string[]) => repo.git("-C", a.workDir, ...args);
    fs.writeFileSync(path.join(a.workDir, "keep.txt"), "kept\nmore\n");
    git("add", "-A");
    git("commit", "-q", "-m", "committed by the hub's test");
    fs.writeFileSync(path.join(a.workDir, "app.txt"), edit(1, "changed"));
    fs.writeFileSync(path.join(a.workDir, "new.txt"), "one\ntwo\n");
    fs.writeFileSync(path.join(a.workDir, ".gitignore"), "ignored.log\n");
    fs.writeFileSync(path.join(a.workDir, "ignored.log"), "noise\n");
    const headBefore = git("rev-parse", "HEAD");
    const statusBefore = git("status", "--porcelain");
    const c = await changes("a");
    expect(c.uncommitted).toBe(true);
    expect(c.files.map((f) => [f.path, f.change, f.additions, f.deletions])).toEqual([
      [".gitignore", "added", 1, 0],
      ["app.txt", "modified", 1, 1],
      ["keep.txt", "modified", 2, 1],
      ["new.txt", "added", 2, 0],
    ]);
    expect(c.files[1].hunks[0]).toMatchObject({ oldStart: 1, newStart: 1, lines: expect.arrayContaining(["-line 2", "+changed"]) });
    expect([c.additions, c.deletions]).toEqual([6, 2]);
    expect(git("rev-parse", "HEAD")).toBe(headBefore);
    expect(git("status", "--porcelain")).toBe(statusBefore);
  });

  it("says a shared session has no work tree", async () => {
    await spawn({ name: "plain" });
    expect(await refusal(changes("plain"))).toMatchObject({ code: "precondition_failed", details: { rule: "has_worktree" } });
  });
});

describe("merge", () => {
  it("merges one member, reports the other's conflict before writing, and merges it once resolved", async () => {
    const a = await member("a");
    const b = await member("b");
    fs.writeFileSync(path.join(a.workDir, "app.txt"), edit(1, "from a"));
    fs.writeFileSync(path.join(b.workDir, "app.txt"), edit(1, "from b"));
    const dry = await merge({ name: "a", dryRun: true });
    expect(dry).toMatchObject({ outcome: "clean", files: 1, commit: null });
    expect(dry.message).toContain("Work of session a");
    const done = await merge({ name: "a" });
    expect(done).toMatchObject({ outcome: "merged", mode: "merge", baseBranch: "main" });
    expect(repo.git("rev-parse", "main")).toBe(done.commit);
    expect(repo.git("rev-list", "--parents", "-n", "1", "main").split(" ")).toHaveLength(3);
    expect(fs.readFileSync(path.join(repo.dir, "app.txt"), "utf8")).toBe(edit(1, "from a"));
    expect(repo.status()).toBe("");
    // a's changes are now measured from what was merged.
    expect((await changes("a")).files).toEqual([]);

    const before = repoState();
    const e = await refusal(merge({ name: "b" }));
    expect(e).toMatchObject({ code: "conflict", details: { rule: "no_conflicts", conflicts: [{ path: "app.txt" }] } });
    expect(e.message).toContain("app.txt");
    expect(repoState()).toEqual(before);
    expect(await merge({ name: "b", dryRun: true })).toMatchObject({ outcome: "conflicts", conflicts: [{ path: "app.txt" }] });

    // b takes a's line and keeps its own change elsewhere: now it merges, squashed.
    fs.writeFileSync(
      path.join(b.workDir, "app.txt"),
      edit(
        8,
        "from b",
        LINES.map((l, i) => (i === 1 ? "from a" : l)),
      ),
    );
    const squashed = await merge({ name: "b", mode: "squash", message: "b's work" });
    expect(squashed.outcome).toBe("merged");
    expect(repo.git("log", "-1", "--format=%s", "main")).toBe("b's work");
    expect(repo.git("rev-list", "--parents", "-n", "1", "main").split(" ")).toHaveLength(2);
    expect(fs.readFileSync(path.join(repo.dir, "app.txt"), "utf8")).toBe(
      edit(
        8,
        "from b",
        LINES.map((l, i) => (i === 1 ? "from a" : l)),
      ),
    );
    expect(hub.events.filter((ev) => ev.type === "worktree.merged").map((ev) => ev.payload.mode)).toEqual(["merge", "squash"]);
  });

  it("refuses a session without a work tree, a deleted branch, a dirty base and a second concurrent merge; the repository stays as it was", async () => {
    await spawn({ name: "plain" });
    let before = repoState();
    expect(await refusal(merge({ name: "plain" }))).toMatchObject({ code: "precondition_failed", details: { rule: "has_worktree" } });
    expect(repoState()).toEqual(before);

    // Deleted branch: the session is deleted (its work kept on the branch), then the branch is deleted outside the hub.
    const gone = await member("gone");
    fs.writeFileSync(path.join(gone.workDir, "app.txt"), edit(3, "gone's work"));
    await deleteSession(hub, OPERATOR, { name: "gone" });
    expect(await pruneDeletedWorktrees(hub)).toBe(1);
    expect(repo.git("show", "teamhub/t/gone:app.txt")).toBe(edit(3, "gone's work").trimEnd());
    repo.git("branch", "-D", "teamhub/t/gone");
    before = repoState();
    expect(await refusal(merge({ name: "gone" }))).toMatchObject({ code: "precondition_failed", details: { rule: "branch_exists", branch: "teamhub/t/gone" } });
    expect(repoState()).toEqual(before);

    // Dirty base: a tracked file of the main work tree has uncommitted changes.
    const a = await member("a");
    fs.writeFileSync(path.join(a.workDir, "keep.txt"), "a's keep\n");
    repo.write("app.txt", edit(5, "uncommitted in main"));
    before = repoState();
    const dirty = await refusal(merge({ name: "a" }));
    expect(dirty).toMatchObject({ code: "precondition_failed", details: { rule: "clean_base", files: ["app.txt"] } });
    expect(repoState()).toEqual(before);
    repo.git("checkout", "--", "app.txt");

    // Two merges of the same session at once: one merges, the other is refused; main moves exactly once.
    const tip = repo.git("rev-parse", "main");
    const results = await Promise.allSettled([merge({ name: "a" }), merge({ name: "a" })]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as { code: string; details: Record<string, unknown> }] : []));
    expect(ok).toHaveLength(1);
    expect(refused).toMatchObject([{ code: "conflict", details: { rule: "one_at_a_time" } }]);
    expect(repo.git("rev-parse", "main^1")).toBe(tip);
    expect(repo.git("rev-list", "--count", `${tip}..main`)).toBe("2"); // the merge commit and a's work
  });

  it("leaves merging to the operator and the team's leads", async () => {
    await member("a");
    const before = repoState();
    const e = await refusal(merge({ name: "a" }, { kind: "member", name: "someone" }));
    expect(e.code).toBe("forbidden");
    expect(repoState()).toEqual(before);
  });
});

describe("discard and delete", () => {
  it("needs confirm, refuses a live session, then removes branch and work tree", async () => {
    const a = await member("a");
    expect(DiscardInput.safeParse({ name: "a" }).success).toBe(false);
    const before = repoState();
    expect(await refusal(discardSession(hub, OPERATOR, { name: "a", confirm: true }))).toMatchObject({ code: "illegal_transition" });
    expect(repoState()).toEqual(before);
    await ended("a");
    expect(await discardSession(hub, OPERATOR, { name: "a", confirm: true })).toEqual({
      name: "a",
      branch: "teamhub/t/a",
      worktreeRemoved: true,
      branchDeleted: true,
    });
    expect(fs.existsSync(a.workDir)).toBe(false);
    expect(repo.git("branch", "--list", "teamhub/*")).toBe("");
    expect(repo.worktrees()).toHaveLength(1);
  });

  it("refuses to resume a discarded session, saying why, before anything starts", async () => {
    await member("a");
    await ended("a");
    await discardSession(hub, OPERATOR, { name: "a", confirm: true });
    const statusBefore = (await hub.db.read((s) => findSession(s, "a")))!.status;
    const eventsBefore = hub.events.length;
    const e = await refusal(resumeSession(hub, OPERATOR, { name: "a" }, 0));
    expect(e).toMatchObject({ code: "precondition_failed", details: { field: "name", rule: "worktree_not_discarded" } });
    expect(e.message).toContain("its work tree was discarded");
    expect((await hub.db.read((s) => findSession(s, "a")))!.status).toBe(statusBefore);
    expect(hub.events.length).toBe(eventsBefore);
    // A session whose work dir is there resumes as before.
    await spawn({ name: "plain" });
    await ended("plain");
    expect((await resumeSession(hub, OPERATOR, { name: "plain" }, 0)).status).toBe("starting");
  });

  it("sweeps work-tree dirs a crash left without a row: the branch goes when it has no work, stays when it has", async () => {
    const kept = await member("kept");
    // Two crashes between `git worktree add` and the transaction: one fresh, one whose files were written.
    const stray = (key: string, branch: string) => {
      const dir = path.join(defaults.worktreesDir, key);
      repo.git("worktree", "add", "-q", "-b", branch, dir, "main");
      return dir;
    };
    const empty = stray("crash-1", "teamhub/t/lost");
    const worked = stray("crash-2", "teamhub/t/busy");
    fs.writeFileSync(path.join(worked, "app.txt"), edit(2, "written before the crash"));
    const young = stray("crash-3", "teamhub/t/young");
    // A dir on a branch a row knows is some session's work tree after all (a path recorded differently): never removed.
    const known = path.join(defaults.worktreesDir, "known-branch");
    repo.git("worktree", "add", "-q", "-f", known, "teamhub/t/kept");
    const old = (Date.now() - 2 * GRACE_MS) / 1000;
    for (const d of [empty, worked, kept.workDir, known]) fs.utimesSync(d, old, old);
    expect(await sweepStrayWorktrees(hub, defaults.worktreesDir)).toBe(2);
    expect(fs.existsSync(empty)).toBe(false);
    expect(fs.existsSync(worked)).toBe(false);
    expect(repo.git("branch", "--list", "teamhub/t/lost")).toBe("");
    // The work is on its branch, which a later spawn of that name finds in the way (merge or discard it).
    expect(repo.git("show", "teamhub/t/busy:app.txt")).toBe(edit(2, "written before the crash").trimEnd());
    // A dir a row knows, and one too young to be a crash's (a spawn in another process may be under way), stay.
    expect(fs.existsSync(kept.workDir)).toBe(true);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(known)).toBe(true);
    expect(repo.worktrees()).toHaveLength(4);
  });

  it("prunes a deleted session's work tree, keeping its work on the branch; a branch with no work goes with it", async () => {
    const a = await member("a");
    const idle = await member("idle");
    fs.writeFileSync(path.join(a.workDir, "new.txt"), "unsaved\n");
    await member("busy");
    await deleteSession(hub, OPERATOR, { name: "a" });
    await deleteSession(hub, OPERATOR, { name: "idle" });
    // Deleted, their branches are left (newest first) with their work trees until the prune; busy's is its session's.
    const left = async () => (await leftBranches(hub, { team: "t" })).branches;
    expect(await left()).toEqual([
      expect.objectContaining({ branch: "teamhub/t/idle", session: "idle", sessionExists: false, path: idle.workDir, head: repo.git("rev-parse", "main") }),
      expect.objectContaining({ branch: "teamhub/t/a", session: "a", sessionExists: false, path: a.workDir, baseCommit: repo.git("rev-parse", "main") }),
    ]);
    expect(await pruneDeletedWorktrees(hub)).toBe(2);
    expect(await left()).toEqual([expect.objectContaining({ branch: "teamhub/t/a", path: null, head: repo.git("rev-parse", "teamhub/t/a") })]);
    expect((await leftBranches(hub, { team: "other" })).branches).toEqual([]);
    expect(fs.existsSync(a.workDir)).toBe(false);
    expect(fs.existsSync(idle.workDir)).toBe(false);
    expect(repo.git("show", "teamhub/t/a:new.txt")).toBe("unsaved");
    expect(repo.git("branch", "--list", "teamhub/t/idle")).toBe("");
    // The kept branch can still be merged.
    expect(await merge({ name: "a" })).toMatchObject({ outcome: "merged", branchDeleted: true });
    expect(fs.readFileSync(path.join(repo.dir, "new.txt"), "utf8")).toBe("unsaved\n");
    expect(repo.git("branch", "--list", "teamhub/t/a")).toBe("");
    expect(await left()).toEqual([]);
  });

  it("lists a left branch deleted outside the hub with no tip", async () => {
    const a = await member("a");
    fs.writeFileSync(path.join(a.workDir, "new.txt"), "work\n");
    await deleteSession(hub, OPERATOR, { name: "a" });
    await pruneDeletedWorktrees(hub);
    repo.git("branch", "-D", "teamhub/t/a");
    expect((await leftBranches(hub, { team: "t" })).branches).toEqual([expect.objectContaining({ branch: "teamhub/t/a", head: null, path: null })]);
  });
});

describe("overlaps", () => {
  it("flags files changed by two live sessions", async () => {
    const a = await member("a");
    const b = await member("b");
    const c = await member("c");
    fs.writeFileSync(path.join(a.workDir, "app.txt"), edit(0, "a"));
    fs.writeFileSync(path.join(b.workDir, "app.txt"), edit(9, "b"));
    fs.writeFileSync(path.join(c.workDir, "keep.txt"), "c\n");
    const o = await overlaps(hub, { team: "t" });
    expect(o.files).toEqual([{ repoDir: fs.realpathSync(repo.dir), path: "app.txt", sessions: ["a", "b"] }]);
    expect(o.sessions).toEqual(["a", "b", "c"]);
    await ended("b");
    expect((await overlaps(hub, { team: "t" })).files).toEqual([]);
  });
});
