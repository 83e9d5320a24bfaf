/**
 * The permission policy in a session's own work tree (docs/worktrees.md#the-sandbox): the files `.worktreeinclude`
 * copied in are readable there and only there, its dependency dirs are its own to write, and everything else that is
 * protected stays protected: `.git`, unlisted secrets, other sessions' trees, and links leading out of what it owns.
 * The layout is a hub's: work trees inside the data dir, which the session's protected paths hold.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decide, protectedMatcher, type Policy } from "./policy.ts";
import { tempDir } from "../testing/temp-dir.ts";

const root = tempDir("policy-worktree");
const data = path.join(root, "data");
const own = path.join(data, "worktrees", "own");
const other = path.join(data, "worktrees", "other");
const main = path.join(root, "repo");

const put = (file: string, content = "x\n") => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};
for (const tree of [own, other, main]) {
  put(path.join(tree, ".env"), "KEY=listed\n");
  put(path.join(tree, "src", "a.ts"));
  put(path.join(tree, "node_modules", "dep", "index.js"));
}
// A work tree's `.git` is a file naming its git dir in the repository.
fs.writeFileSync(path.join(own, ".git"), `gitdir: ${main}/.git/worktrees/own\n`);
put(path.join(main, ".git", "config"), "[core]\n");
put(path.join(own, ".env.local"), "SECRET=unlisted\n");
put(path.join(own, "sub", ".env"), "SECRET=same name, not listed\n");
put(path.join(own, "credentials", "dev.json"), '{"listed": true}\n');
// Links in its own node_modules: to an unlisted secret of its tree, to another tree's file, to its git dir.
fs.symlinkSync("../.env.local", path.join(own, "node_modules", "evil"));
fs.symlinkSync(path.join(other, "src", "a.ts"), path.join(own, "node_modules", "theirs"));
fs.symlinkSync(path.join(main, ".git"), path.join(own, "node_modules", "gitdir"));
// A link elsewhere in its tree that leads to the listed file of another tree.
fs.symlinkSync(path.join(other, ".env"), path.join(own, "their-env"));

/** As the runner builds it: the data dir protected, the listed files readable as written and where they are. */
const listed = [".env", "credentials/dev.json"];
const policy: Policy = {
  preset: "edit",
  allowedTools: [],
  protectedPaths: [`${data}/`],
  workDir: own,
  ownTree: own,
  readable: new Set(listed.flatMap((rel) => [path.join(own, rel), path.join(fs.realpathSync(own), rel)])),
  hubReadTools: new Set(),
};
const behavior = (p: Policy, tool: string, input: Record<string, unknown>) => decide(p, tool, input).behavior;

describe("a listed file", () => {
  it.each([
    ["Read", { file_path: path.join(own, ".env") }],
    ["Read", { file_path: ".env" }],
    ["Read", { file_path: "src/../.env" }],
    ["Grep", { pattern: "KEY", path: ".env" }],
    ["Bash", { command: "cat .env" }],
    ["Read", { file_path: "credentials/dev.json" }],
  ])("in its own tree: %s %j is allowed", (tool, input) => {
    expect(decide(policy, tool, input)).toMatchObject({ behavior: "allow" });
  });

  it.each([
    ["another session's tree", path.join(other, ".env")],
    ["another session's tree, through .. from its own", "../other/.env"],
    ["the main work tree", path.join(main, ".env")],
    ["a link in its own tree to another tree's", "their-env"],
  ])("is denied by the same name in %s", (_, file) => {
    for (const tool of ["Read", "Write"])
      expect(decide(policy, tool, { file_path: file })).toMatchObject({ behavior: "deny", protectedPath: expect.any(String) });
    expect(behavior(policy, "Bash", { command: `cat ${file}` })).toBe("deny");
  });

  it("is denied in a session without a work tree of its own, and unlisted secrets of its own tree stay denied", () => {
    // Even were it handed files to read, they are read only in a tree of its own.
    const shared: Policy = { ...policy, workDir: main, ownTree: undefined, readable: new Set([path.join(main, ".env")]) };
    expect(behavior(shared, "Read", { file_path: ".env" })).toBe("deny");
    const stray: Policy = { ...policy, readable: new Set([...policy.readable!, path.join(other, ".env")]) };
    expect(behavior(stray, "Read", { file_path: path.join(other, ".env") })).toBe("deny");
    for (const file of [".env.local", "sub/.env", path.join(own, "sub", ".env"), "credentials/other.json"]) {
      expect(decide(policy, "Read", { file_path: file }), file).toMatchObject({
        behavior: "deny",
        protectedPath: expect.stringMatching(/^(\.env\*|credentials\/)/),
      });
    }
    expect(behavior(policy, "Bash", { command: "cat .env .env.local" })).toBe("deny");
    expect(behavior(policy, "Bash", { command: "cat .en?.local" })).toBe("deny");
  });
});

describe("dependency dirs", () => {
  it("are its own to write in its own tree (the edit preset allows the edit, asks before the shell as anywhere)", () => {
    expect(decide(policy, "Write", { file_path: "node_modules/dep/index.js" })).toMatchObject({ behavior: "allow" });
    expect(decide(policy, "Edit", { file_path: path.join(own, "node_modules", "new-dep", "package.json") })).toMatchObject({ behavior: "allow" });
    expect(behavior(policy, "Read", { file_path: "node_modules/dep/index.js" })).toBe("allow");
    expect(behavior(policy, "Bash", { command: "rm -rf node_modules/dep" })).toBe("ask");
    expect(behavior({ ...policy, preset: "full" }, "Bash", { command: "npm install zod && ls node_modules" })).toBe("allow");
  });

  it.each([
    ["another session's tree", path.join(other, "node_modules", "dep", "index.js")],
    ["the main work tree", path.join(main, "node_modules", "dep", "index.js")],
    ["its own tree, reached from another", "../other/node_modules/dep/index.js"],
  ])("stay protected in %s", (_, file) => {
    expect(decide(policy, "Write", { file_path: file })).toMatchObject({ behavior: "deny", protectedPath: expect.any(String) });
  });

  it("stay protected for a session without a work tree of its own", () => {
    const shared: Policy = { ...policy, workDir: main, ownTree: undefined, readable: new Set() };
    expect(decide(shared, "Write", { file_path: "node_modules/dep/index.js" })).toMatchObject({
      behavior: "deny",
      protectedPath: "node_modules/ (node_modules/dep/index.js)",
    });
  });

  it.each([
    ["an unlisted secret of its tree", "node_modules/evil", ".env*"],
    ["another session's tree", "node_modules/theirs", `${data}/`],
    ["the repository's git dir", "node_modules/gitdir/config", ".git/"],
  ])("do not open a link in them that leads to %s", (_, file, pattern) => {
    for (const tool of ["Read", "Write"])
      expect(decide(policy, tool, { file_path: file })).toMatchObject({ behavior: "deny", protectedPath: `${pattern} (${file})` });
    expect(behavior(policy, "Bash", { command: `cat ${file}` })).toBe("deny");
  });
});

describe("the rest of its own tree", () => {
  it("keeps .git protected and its own files free", () => {
    for (const file of [".git/config", path.join(own, ".git"), ".git/hooks/pre-commit"]) {
      for (const tool of ["Read", "Write", "Edit"]) expect(decide(policy, tool, { file_path: file }), `${tool} ${file}`).toMatchObject({ behavior: "deny" });
    }
    expect(behavior(policy, "Bash", { command: "echo x >> .git/config" })).toBe("deny");
    expect(behavior(policy, "Write", { file_path: "src/a.ts" })).toBe("allow");
  });

  it("matches many paths the same way as one (the matcher the policy uses)", () => {
    const match = protectedMatcher([".env*", ".git/", "node_modules/", "credentials/", `${data}/`], own, own, policy.readable);
    expect([".env", "node_modules/dep/index.js", "credentials/dev.json", "src/a.ts"].map(match)).toEqual([null, null, null, null]);
    expect([".env.local", "node_modules/evil", ".git/config", path.join(other, "src", "a.ts")].map(match)).toEqual([".env*", ".env*", ".git/", `${data}/`]);
  });
});
