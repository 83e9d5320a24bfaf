/**
 * Code in snapshots and in the lineage, against a real git repository (docs/worktrees.md#code-in-snapshots): a
 * snapshot pins every work tree's commit; rollback restores every work tree's files byte for byte and its undo brings
 * the later state back; a replay gives the re-run contract's assignee a fresh branch while the first run's stays,
 * and compare shows the difference; an artifact version records its publisher's commit.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TeamSpawnInput } from "../../../lib/api/sessions.ts";
import { CompareInput, DiscardInput, MergeInput } from "../../../lib/api/worktrees.ts";
import { AuditInput } from "../../../lib/api/lineage.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { teamSpawn } from "../sessions/spawn.service.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { workTree, type WorkTree } from "../../testing/work-tree.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { compareBranches } from "../worktrees/compare.service.ts";
import { leftBranches } from "../worktrees/left-branches.ts";
import { sessionChanges } from "../worktrees/changes.service.ts";
import { discardSession, mergeSession } from "../worktrees/merge.service.ts";
import { audit } from "../lineage/lineage.service.ts";
import { getSnapshot } from "./snapshots.service.ts";
import { TEST_RUNTIMES } from "../../testing/operations.ts";

let hub: TempHub;
let repo: WorkTree;
let k: Kit;
let defaults: { workDir: string; sandbox: "bubblewrap"; maxLive: number; worktreesDir: string; runtimes: typeof TEST_RUNTIMES };

beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
  repo = workTree();
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "v0\n");
  repo.write("keep.txt", "keep\n");
  repo.commit("start");
  defaults = { workDir: repo.dir, sandbox: "bubblewrap", maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(hub.dir, "worktrees") };
});
afterEach(() => hub.close());

const member = async (name: string) => (await teamSpawn(hub, OPERATOR, parseOrThrow(TeamSpawnInput, { team: "t", name }), defaults)).worktree!.path!;
const as = (name: string): Principal => ({ name, kind: "member", sessionId: name });
const merge = (input: Record<string, unknown>) => mergeSession(hub, OPERATOR, parseOrThrow(MergeInput, input));
const discard = (input: Record<string, unknown>) => discardSession(hub, OPERATOR, parseOrThrow(DiscardInput, input));

/** Every file of a work tree (not .git), path → bytes, with its mode bits. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = `${(fs.statSync(p).mode & 0o777).toString(8)} ${fs.readFileSync(p).toString("base64")}`;
    }
  };
  walk(dir);
  return out;
}
const put = (dir: string, file: string, text: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};

describe("rollback restores every work tree byte for byte", () => {
  it("brings back the snapshot's files, and its undo the later ones", async () => {
    const a = await member("a");
    const b = await member("b");
    // Uncommitted, untracked, binary, executable, nested: all of it is the session's work.
    put(a, "app.txt", "a's first\n");
    put(a, "src/new.ts", "export const x = 1;\n");
    put(a, "bin.dat", Buffer.from([0, 1, 2, 255, 254]));
    put(b, "tool.sh", "#!/bin/sh\necho hi\n");
    fs.chmodSync(path.join(b, "tool.sh"), 0o755);
    fs.rmSync(path.join(b, "keep.txt"));
    const refsBefore = repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads");
    const snap = await k.snapshot({ team: "t", id: "s1" });
    // Checkpoints went on private refs; no branch moved.
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")).toBe(refsBefore);
    expect(snap.id).toBe("s1");
    const thenA = files(a);
    const thenB = files(b);

    // Later work: edits, a deleted file, a new directory, a file where a directory was.
    put(a, "app.txt", "a's second\n");
    fs.rmSync(path.join(a, "src"), { recursive: true });
    put(a, "src", "now a file\n");
    put(b, "tool.sh", "#!/bin/sh\necho bye\n");
    put(b, "deep/er/x.txt", "x\n");
    const laterA = files(a);
    const laterB = files(b);

    const summary = await k.rollback("s1", "t");
    expect(summary.code).toEqual([
      { session: "a", action: "restored", commit: expect.stringMatching(/^[0-9a-f]{40}$/), branch: "teamhub/t/a", previousBranch: null },
      { session: "b", action: "restored", commit: expect.stringMatching(/^[0-9a-f]{40}$/), branch: "teamhub/t/b", previousBranch: null },
    ]);
    expect(files(a)).toEqual(thenA);
    expect(files(b)).toEqual(thenB);
    expect(fs.existsSync(path.join(b, "deep"))).toBe(false);
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")).toBe(refsBefore);

    // The automatic snapshot kept the later state: rolling back to it is the undo.
    const undo = await k.rollback(summary.autoSnapshot, "t");
    expect(undo.code.map((m) => m.action)).toEqual(["restored", "restored"]);
    expect(files(a)).toEqual(laterA);
    expect(files(b)).toEqual(laterB);
  });

  it("a preview moves nothing and says what the rollback will do, unchanged included; a refused rollback touches no file", async () => {
    const a = await member("a");
    const b = await member("b");
    put(a, "app.txt", "one\n");
    put(b, "app.txt", "b's\n");
    await k.snapshot({ team: "t", id: "s1" });
    put(a, "app.txt", "two\n");
    const refs = repo.git("for-each-ref", "--format=%(refname) %(objectname)");
    const statusA = repo.git("-C", a, "status", "--porcelain");
    const preview = await k.rollbackPreview("s1", "t");
    // b's files are the snapshot's already: the preview says so, as the rollback does.
    expect(preview.code).toEqual([
      { session: "a", action: "restored", commit: expect.any(String), branch: "teamhub/t/a", previousBranch: null },
      { session: "b", action: "unchanged", commit: expect.any(String), branch: "teamhub/t/b", previousBranch: null },
    ]);
    expect(fs.readFileSync(path.join(a, "app.txt"), "utf8")).toBe("two\n");
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
    expect(repo.git("-C", a, "status", "--porcelain")).toBe(statusA);
    const real = await k.rollback("s1", "t");
    expect(real.code.map((m) => m.action)).toEqual(preview.code.map((m) => m.action));
    put(a, "app.txt", "two\n");
    const outsider: Principal = { name: "a", kind: "member", sessionId: "a" };
    await expect(kit(hub, outsider).rollback("s1", "t")).rejects.toMatchObject({ code: "forbidden" });
    expect(fs.readFileSync(path.join(a, "app.txt"), "utf8")).toBe("two\n");
  });
});

describe("replay with code", () => {
  it("gives the re-run's assignee a fresh branch from the snapshot's commit; both runs' branches exist and compare", async () => {
    const a = await member("a");
    await k.create({ team: "t", id: "build-api", assignee: "a", inputs: { style: "REST" } });
    await k.snapshot({ team: "t", id: "pre-work" });
    put(a, "api.ts", "app.post('/login')\n");
    const v1 = await k.publish({ team: "t", id: "api", type: "custom", data: { style: "REST" } }, as("a"));
    expect(v1.code).toMatchObject({ session: "a", branch: "teamhub/t/a", checkpoint: true, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(repo.git("rev-parse", `refs/teamhub/checkpoints/${v1.code!.commit}`)).toBe(v1.code!.commit);

    const replayed = await k.replay({ team: "t", id: "pre-work", overrides: { "build-api": { inputs: { style: "GraphQL" } } } });
    expect(replayed.code).toEqual([
      { session: "a", action: "branched", commit: expect.any(String), branch: "teamhub/t/a-replay-1", previousBranch: "teamhub/t/a" },
    ]);
    // The replay starts from the snapshot's files; the first run's are on its branch.
    expect(fs.existsSync(path.join(a, "api.ts"))).toBe(false);
    expect(repo.git("show", "teamhub/t/a:api.ts")).toBe("app.post('/login')");
    expect(repo.git("branch", "--list", "teamhub/*").replace(/[*+ ]/g, "").split("\n")).toEqual(["teamhub/t/a", "teamhub/t/a-replay-1"]);
    // The first run's branch is left: listed with its tip, its session still there on the replay's branch.
    expect((await leftBranches(hub, { team: "t" })).branches).toEqual([
      expect.objectContaining({
        branch: "teamhub/t/a",
        session: "a",
        sessionExists: true,
        head: repo.git("rev-parse", "teamhub/t/a"),
        baseBranch: "main",
        path: null,
      }),
    ]);

    put(a, "api.ts", "schema { query: Query }\n");
    const v2 = await k.publish({ team: "t", id: "api", type: "custom", data: { style: "GraphQL" } }, as("a"));
    expect(v2.code).toMatchObject({ branch: "teamhub/t/a-replay-1", checkpoint: true });

    const compared = await compareBranches(hub, OPERATOR, parseOrThrow(CompareInput, { team: "t", a: "teamhub/t/a", b: "teamhub/t/a-replay-1" }));
    expect(compared.files.map((f) => [f.path, f.change, f.additions, f.deletions])).toEqual([["api.ts", "modified", 1, 1]]);
    expect(compared.files[0].hunks[0].lines).toEqual(["-app.post('/login')", "+schema { query: Query }"]);
    expect(compared.b).toMatchObject({ session: "a", uncommitted: true });

    // Each version's code stays readable: the changes up to its commit, and audit names it.
    const atV1 = await sessionChanges(hub, OPERATOR, { name: "a", at: v1.code!.commit });
    expect(atV1.files.map((f) => f.path)).toEqual(["api.ts"]);
    expect(atV1.files[0].hunks[0].lines).toEqual(["+app.post('/login')"]);
    const trail = await audit(hub, parseOrThrow(AuditInput, { team: "t", ref: "api@v1" }));
    expect(trail.trail[0].code).toEqual(v1.code);
  });

  it("merges or discards the first run's branch by its name, and refuses a branch that is not the session's", async () => {
    const a = await member("a");
    const b = await member("b");
    await k.create({ team: "t", id: "build-api", assignee: "a", inputs: { style: "REST" } });
    await k.snapshot({ team: "t", id: "pre-work" });
    put(a, "api.ts", "rest\n");
    put(b, "b.txt", "b\n");
    await k.replay({ team: "t", id: "pre-work", overrides: { "build-api": { inputs: { style: "GraphQL" } } } });
    put(a, "api.ts", "graphql\n");
    // Another session's branch, an unknown one: not_found naming `branch`, nothing written.
    const refs = repo.git("for-each-ref", "--format=%(refname) %(objectname)");
    for (const branch of ["teamhub/t/b", "teamhub/t/nope"]) {
      await expect(merge({ name: "a", branch })).rejects.toMatchObject({ code: "not_found", details: { field: "branch", rule: "exists" } });
      await expect(discard({ name: "a", branch, confirm: true })).rejects.toMatchObject({ code: "not_found", details: { field: "branch" } });
    }
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);

    // The first run (REST) goes into main, not the replay's GraphQL; its branch goes with the merge.
    const merged = await merge({ name: "a", branch: "teamhub/t/a", mode: "squash", message: "REST run" });
    expect(merged).toMatchObject({ outcome: "merged", branch: "teamhub/t/a", branchDeleted: true });
    expect(repo.git("show", "main:api.ts")).toBe("rest");
    expect(fs.readFileSync(path.join(a, "api.ts"), "utf8")).toBe("graphql\n");
    expect(repo.git("branch", "--list", "teamhub/t/a")).toBe("");
    expect((await sessionChanges(hub, OPERATOR, { name: "a" })).worktree.branch).toBe("teamhub/t/a-replay-1");

    // A second replay; then the second run's branch is discarded, the session keeps working on the third.
    await k.replay({ team: "t", id: "pre-work", overrides: { "build-api": { inputs: { style: "gRPC" } } } });
    expect(await discard({ name: "a", branch: "teamhub/t/a-replay-1", confirm: true })).toEqual({
      name: "a",
      branch: "teamhub/t/a-replay-1",
      worktreeRemoved: false,
      branchDeleted: true,
    });
    expect(repo.git("branch", "--list", "teamhub/t/a*").replace(/[*+ ]/g, "")).toBe("teamhub/t/a-replay-2");
    expect(fs.existsSync(a)).toBe(true);
  });

  it("undoing a replay puts the session back on the first run's branch, and redoing it on the replay's", async () => {
    const a = await member("a");
    await k.create({ team: "t", id: "build-api", assignee: "a", inputs: { style: "REST" } });
    await k.snapshot({ team: "t", id: "pre-work" });
    put(a, "api.ts", "rest\n");
    const first = files(a);
    const replayed = await k.replay({ team: "t", id: "pre-work", overrides: { "build-api": { inputs: { style: "GraphQL" } } } });
    put(a, "api.ts", "graphql\n");
    put(a, "schema.graphql", "type Query\n");
    const second = files(a);
    const head = () => repo.git("-C", a, "symbolic-ref", "--short", "HEAD");
    expect(head()).toBe("teamhub/t/a-replay-1");

    const preview = await k.rollbackPreview(replayed.autoSnapshot, "t");
    const undo = await k.rollback(replayed.autoSnapshot, "t");
    expect(preview.code).toEqual(undo.code);
    expect(undo.code).toEqual([
      { session: "a", action: "switched", commit: expect.any(String), branch: "teamhub/t/a", previousBranch: "teamhub/t/a-replay-1" },
    ]);
    expect(head()).toBe("teamhub/t/a");
    expect(files(a)).toEqual(first);
    expect(repo.git("-C", a, "status", "--porcelain")).toBe("");
    // The replay's work is kept on its branch, which compares against the first run's.
    expect(repo.git("show", "teamhub/t/a-replay-1:schema.graphql")).toBe("type Query");
    const compared = await compareBranches(hub, OPERATOR, parseOrThrow(CompareInput, { team: "t", a: "teamhub/t/a", b: "teamhub/t/a-replay-1" }));
    expect(compared.files.map((f) => f.path)).toEqual(["api.ts", "schema.graphql"]);
    expect((await sessionChanges(hub, OPERATOR, { name: "a" })).worktree).toMatchObject({ branch: "teamhub/t/a", path: a });
    expect(hub.events.filter((e) => e.type === "worktree.switched").map((e) => e.payload)).toEqual([
      { name: "a", path: a, branch: "teamhub/t/a", previousBranch: "teamhub/t/a-replay-1" },
    ]);

    // Redo: the undo's own automatic snapshot takes the session to the replay's branch again.
    const redo = await k.rollback(undo.autoSnapshot, "t");
    expect(redo.code).toMatchObject([{ action: "switched", branch: "teamhub/t/a-replay-1", previousBranch: "teamhub/t/a" }]);
    expect(head()).toBe("teamhub/t/a-replay-1");
    expect(files(a)).toEqual(second);

    // Back to the snapshot the replay started from: files only (the first run's branch holds more than it).
    const plain = await k.rollback("pre-work", "t");
    expect(plain.code).toMatchObject([{ action: "restored", branch: "teamhub/t/a-replay-1", previousBranch: null }]);
    expect(head()).toBe("teamhub/t/a-replay-1");
  });

  it("a team reset's snapshot records the code, and rolling back to it restores the files", async () => {
    const a = await member("a");
    put(a, "app.txt", "before the reset\n");
    const then = files(a);
    const reset = await k.reset({ team: "t", confirm: true });
    const snap = await getSnapshot(hub, { team: "t", id: reset.snapshotId });
    expect(snap.state.code).toEqual([{ session: "a", branch: "teamhub/t/a", repoDir: expect.any(String), commit: expect.any(String), checkpoint: true }]);
    expect(repo.git("rev-parse", `refs/teamhub/checkpoints/${snap.state.code![0].commit}`)).toBe(snap.state.code![0].commit);
    put(a, "app.txt", "after the reset\n");
    const back = await k.rollback(reset.snapshotId, "t");
    expect(back.code.map((m) => m.action)).toEqual(["restored"]);
    expect(files(a)).toEqual(then);
    // A refused reset pins nothing.
    const pins = repo.git("for-each-ref", "refs/teamhub");
    await expect(kit(hub, as("a")).reset({ team: "t", confirm: true })).rejects.toMatchObject({ code: "forbidden" });
    expect(repo.git("for-each-ref", "refs/teamhub")).toBe(pins);
  });

  it("refuses a compare of unknown branches and an unknown commit, naming the field", async () => {
    await member("a");
    await expect(compareBranches(hub, OPERATOR, parseOrThrow(CompareInput, { team: "t", a: "teamhub/t/a", b: "nope" }))).rejects.toMatchObject({
      code: "not_found",
      details: { field: "b", rule: "exists" },
    });
    await expect(sessionChanges(hub, OPERATOR, { name: "a", at: "0".repeat(40) })).rejects.toMatchObject({ code: "not_found", details: { field: "at" } });
    // Another session's code is in the same object store, but it is not this session's to show.
    const b = await member("b");
    put(b, "b.txt", "b's secret\n");
    const vb = await k.publish({ team: "t", id: "b-out", type: "custom", data: {} }, as("b"));
    expect((await sessionChanges(hub, OPERATOR, { name: "b", at: vb.code!.commit })).files.map((f) => f.path)).toEqual(["b.txt"]);
    await expect(sessionChanges(hub, OPERATOR, { name: "a", at: vb.code!.commit })).rejects.toMatchObject({ code: "not_found", details: { field: "at" } });
    expect(() => parseOrThrow(CompareInput, { team: "t", a: "x..y", b: "b" })).toThrow(/a: must be a branch name/);
  });
});
