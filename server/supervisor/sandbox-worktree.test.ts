/**
 * The sandbox of a session's own work tree (docs/worktrees.md#the-sandbox), checked with real bubblewrap and a real git
 * work tree inside the hub's data dir, a shell standing in for the CLI and for setup: the files `.worktreeinclude`
 * copied in are readable, unlisted secrets stay masked, its dependency dirs are writable, `.git` is read-only, and
 * setup's HOME is a dir of its own that it writes and keeps.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkSandbox } from "./sandbox-check.ts";
import { sandboxCommand, type SandboxInput } from "./sandbox.ts";
import { decide, type Policy } from "./policy.ts";
import { tempDir } from "../testing/temp-dir.ts";
import { workTree } from "../testing/work-tree.ts";

const bwrap = checkSandbox("auto", "bwrap");
const root = fs.realpathSync(tempDir("sandbox-worktree"));
const data = path.join(root, "data");
fs.mkdirSync(path.join(root, "repo"));
const repo = workTree(path.join(root, "repo"));
const tree = path.join(data, "worktrees", "k1");
const other = path.join(data, "worktrees", "k2");
const home = path.join(data, "homes", "1");

const put = (file: string, content: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};
repo.write("a.txt", "one\n");
repo.write(".gitignore", ".env*\nnode_modules/\ncredentials/\n");
repo.commit("first");
repo.write(".env", "SECRET=main\n");
repo.git("worktree", "add", "-q", "-b", "teamhub/t/k1", tree);
repo.git("worktree", "add", "-q", "-b", "teamhub/t/k2", other);
// What .worktreeinclude copied in (listed), and what it did not (unlisted).
put(path.join(tree, ".env"), "KEY=listed\n");
put(path.join(tree, "credentials", "dev.json"), '{"listed":true}\n');
put(path.join(tree, ".env.local"), "SECRET=unlisted\n");
put(path.join(tree, "sub", ".env"), "SECRET=same name, not listed\n");
put(path.join(tree, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
fs.symlinkSync("../.env.local", path.join(tree, "node_modules", "evil"));
// A listed name the session turned into a link to an unlisted secret of its tree.
fs.symlinkSync(".env.local", path.join(tree, "swapped.env"));
put(path.join(other, ".env"), "SECRET=other\n");
put(path.join(data, "teamhub.db"), "SECRET=db\n");
// What an earlier setup left in its HOME (npm's cache): kept.
put(path.join(home, ".npm", "cached"), "from the last setup\n");
const listed = [".env", "credentials/dev.json", "swapped.env"];

/** As WorktreeCommands builds it for setup and run: HOME its own dir, the listed files readable, no MCP config. */
function input(script: string, overrides: Partial<SandboxInput> = {}): SandboxInput {
  return {
    bwrap: bwrap.kind === "bubblewrap" ? bwrap.bin : "bwrap",
    bin: "/bin/sh",
    args: ["-c", script],
    workDir: tree,
    ownTree: tree,
    env: { HOME: home, PATH: "/usr/bin:/bin", TEAMHUB_SESSION: "k1" },
    home,
    hidden: [data, path.join(data, "teamhub.db")],
    protectedPaths: [],
    readable: listed.map((rel) => path.join(tree, rel)),
    ...overrides,
  };
}

/** Runs a shell script inside the sandbox and returns what it printed. */
async function inside(script: string, overrides: Partial<SandboxInput> = {}): Promise<string> {
  const i = input(script, overrides);
  const cmd = await sandboxCommand(i);
  const r = spawnSync(cmd.bin, cmd.args, {
    cwd: cmd.cwd,
    env: i.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe.skipIf(bwrap.kind !== "bubblewrap")("the sandbox of a session's own work tree", () => {
  it("shows the listed files, even in a masked dir, and masks unlisted secrets, whatever their name or link", async () => {
    expect(await inside("cat .env credentials/dev.json; ls -A credentials; echo ---; cat .env.local sub/.env node_modules/evil swapped.env; echo end")).toBe(
      'KEY=listed\n{"listed":true}\ndev.json\n---\nend\n',
    );
  });

  it("shows no other session's tree, nor the main work tree's files, nor the rest of the data dir", async () => {
    const out = await inside(`cat ${other}/.env ${repo.dir}/.env ${data}/teamhub.db 2>/dev/null; ls ${path.dirname(tree)}; ls -A ${repo.dir}; echo end`);
    // Of the repository only its git dir is there (read-only), as git needs it.
    expect(out).toBe("k1\n.git\nend\n");
  });

  it("lets it write its own node_modules, never .git", async () => {
    const out = await inside(
      "echo 2 > node_modules/dep/index.js && mkdir node_modules/added && echo new > node_modules/added/x.js && cat node_modules/added/x.js; " +
        "echo x >> .git 2>/dev/null || echo .git ro; git add a.txt 2>/dev/null || echo add refused; git log --format=%s",
    );
    expect(out).toBe("new\n.git ro\nadd refused\nfirst\n");
    expect(fs.readFileSync(path.join(tree, "node_modules", "dep", "index.js"), "utf8")).toBe("2\n");
    expect(fs.readFileSync(path.join(tree, "node_modules", "added", "x.js"), "utf8")).toBe("new\n");
  });

  it("keeps node_modules read-only and listed names masked where it is not its own tree", async () => {
    const shared = path.join(root, "shared");
    put(path.join(shared, "node_modules", "dep", "index.js"), "1\n");
    put(path.join(shared, ".env"), "SECRET=shared\n");
    const out = await inside("touch node_modules/dep/y 2>/dev/null || echo ro; cat .env; echo end", {
      workDir: shared,
      ownTree: undefined,
      readable: [path.join(shared, ".env")],
    });
    expect(out).toBe("ro\nend\n");
  });

  it("gives setup a HOME of its own, writable and kept", async () => {
    const out = await inside('echo "$HOME"; cat "$HOME/.npm/cached"; echo fresh > "$HOME/.npmrc" && cat "$HOME/.npmrc"; ls -A "$HOME"');
    expect(out).toBe(`${home}\nfrom the last setup\nfresh\n.npm\n.npmrc\n`);
    expect(fs.readFileSync(path.join(home, ".npmrc"), "utf8")).toBe("fresh\n");
  });

  it("agrees with the permission policy about every file it shows or masks", async () => {
    const policy: Policy = {
      preset: "edit",
      allowedTools: [],
      protectedPaths: [`${data}/`],
      workDir: tree,
      ownTree: tree,
      readable: new Set(listed.map((rel) => path.join(tree, rel))),
      hubReadTools: new Set(),
    };
    const files = [".env", "credentials/dev.json", ".env.local", "sub/.env", "node_modules/evil", "swapped.env", "node_modules/dep/index.js", "a.txt"];
    const shown = (await inside(files.map((f) => `test -s ${f} && echo ${f}`).join("; ") + "; true")).split("\n").filter(Boolean);
    const allowed = files.filter((f) => decide(policy, "Read", { file_path: f }).behavior === "allow");
    expect(shown).toEqual(allowed);
    expect(allowed).toEqual([".env", "credentials/dev.json", "node_modules/dep/index.js", "a.txt"]);
  });
});
