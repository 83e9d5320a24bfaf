import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../testing/temp-dir.ts";
import { workTree } from "../testing/work-tree.ts";
import { gitFacts } from "./git-facts.ts";

describe("git facts of a work tree", () => {
  it("are nothing outside a repository", () => {
    expect(gitFacts(tempDir("plain"))).toBeUndefined();
    expect(gitFacts(path.join(os.tmpdir(), "teamhub-does-not-exist"))).toBeUndefined();
  });

  it("have no HEAD before the first commit, and list the new files", () => {
    const tree = workTree();
    tree.write("a.ts", "1\n");
    expect(gitFacts(tree.dir)).toEqual({ changedFiles: ["a.ts"] });
  });

  it("list what is uncommitted, a rename once, and what was committed since a checkpoint's HEAD", () => {
    const tree = workTree();
    tree.write("kept.ts", "1\n");
    tree.write("old-name.ts", "1\n");
    const checkpointHead = tree.commit("first");
    expect(gitFacts(tree.dir)).toEqual({ head: checkpointHead, changedFiles: [] });

    tree.write("committed.ts", "1\n");
    const head = tree.commit("second");
    tree.write("kept.ts", "2\n");
    tree.write("new file.ts", "1\n");
    tree.git("mv", "old-name.ts", "new-name.ts");
    const facts = gitFacts(tree.dir, checkpointHead)!;
    expect(facts).toMatchObject({ head, since: checkpointHead });
    expect(facts.changedFiles!.sort()).toEqual(["committed.ts", "kept.ts", "new file.ts", "new-name.ts"]);
    expect(gitFacts(tree.dir, head)).toEqual({ head, changedFiles: expect.arrayContaining(["kept.ts"]) });
  });

  it("leave out a checkpoint HEAD git does not know (rebased away), keeping the rest", () => {
    const tree = workTree();
    tree.write("a.ts", "1\n");
    const head = tree.commit("only");
    tree.write("a.ts", "2\n");
    expect(gitFacts(tree.dir, "0123456789abcdef0123456789abcdef01234567")).toEqual({ head, changedFiles: ["a.ts"] });
  });

  it("leave the index alone, so the user's own git commands never meet our index.lock", () => {
    const tree = workTree();
    tree.write("a.ts", "1\n");
    tree.commit("first");
    // A file touched but not changed: a plain `git status` would refresh (rewrite) the index.
    fs.utimesSync(path.join(tree.dir, "a.ts"), new Date(), new Date(Date.now() + 5000));
    const index = path.join(tree.dir, ".git", "index");
    fs.utimesSync(index, new Date(0), new Date(0));
    expect(gitFacts(tree.dir)).toMatchObject({ changedFiles: [] });
    expect(fs.statSync(index).mtimeMs).toBe(0);
  });
});
