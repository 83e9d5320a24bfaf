import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_PROTECTED, decide, expandGlob, isReadOnlyCommand, protectedMatch, realPath, ruleAllows, shellWords, type Policy } from "./policy.ts";
import { tempDir } from "../testing/temp-dir.ts";

const base: Policy = { preset: "edit", allowedTools: [], protectedPaths: [], workDir: "/w", hubReadTools: new Set(["artifact_get", "contract_list"]) };
const with_ = (p: Partial<Policy>): Policy => ({ ...base, ...p });

describe("protected paths", () => {
  it.each([
    ["Edit", { file_path: "/w/.env" }],
    ["Write", { file_path: ".env.local" }],
    ["Read", { file_path: "/w/config/.env" }],
    ["Edit", { file_path: "/w/.git/config" }],
    ["Write", { file_path: "/w/node_modules/x/index.js" }],
    ["Read", { file_path: "/w/credentials/aws.json" }],
    ["Bash", { command: "echo SECRET=1 >> .env" }],
    ["Bash", { command: "rm -rf .git" }],
    ["Bash", { command: "cat '/w/.env'" }],
    ["Glob", { pattern: "**/.env*" }],
    ["Grep", { pattern: "KEY", path: "/w/.env" }],
  ])("%s %j is denied in every preset, even full or with an allow rule", (tool, input) => {
    for (const preset of ["edit", "full", "read-only"] as const) {
      const d = decide(with_({ preset, allowedTools: [tool] }), tool, input);
      expect(d.behavior).toBe("deny");
      expect(d).toHaveProperty("protectedPath");
    }
  });

  it("honours configured patterns: names anywhere, or paths relative to the work dir", () => {
    expect(protectedMatch("/w/secrets/key.pem", ["secrets/"], "/w")).toBe("secrets/");
    expect(protectedMatch("deploy/prod.yaml", ["deploy/prod.yaml"], "/w")).toBe("deploy/prod.yaml");
    expect(protectedMatch("/w/deploy/dev.yaml", ["deploy/prod.yaml"], "/w")).toBeNull();
    expect(protectedMatch("/w/a/id_rsa", ["id_*"], "/w")).toBe("id_*");
  });

  it("does not flag lookalikes", () => {
    expect(decide(base, "Edit", { file_path: "/w/src/environment.ts" }).behavior).toBe("allow");
    expect(decide(base, "Bash", { command: "git status" }).behavior).toBe("allow");
    expect(decide(base, "Write", { file_path: "/w/docs/gitignore.md" }).behavior).toBe("allow");
  });
});

describe("presets", () => {
  it("edit: reads and edits allowed, shell asks unless it only reads", () => {
    expect(decide(base, "Read", { file_path: "/w/a.ts" }).behavior).toBe("allow");
    expect(decide(base, "Edit", { file_path: "/w/a.ts" }).behavior).toBe("allow");
    expect(decide(base, "Bash", { command: "npm install" }).behavior).toBe("ask");
    expect(decide(base, "Bash", { command: "ls -la | wc -l" }).behavior).toBe("allow");
    expect(decide(base, "WebFetch", { url: "http://x" }).behavior).toBe("ask");
  });

  it("read-only, review and plan: only reading and searching", () => {
    for (const preset of ["read-only", "review", "plan"] as const) {
      const p = with_({ preset });
      expect(decide(p, "Grep", { pattern: "x" }).behavior).toBe("allow");
      expect(decide(p, "Edit", { file_path: "/w/a.ts" }).behavior).toBe("deny");
      expect(decide(p, "Bash", { command: "touch x" }).behavior).toBe("deny");
      expect(decide(p, "mcp__teamhub__artifact_get", { id: "x" }).behavior).toBe("allow");
      expect(decide(p, "mcp__teamhub__artifact_publish", { id: "x" }).behavior).toBe("deny");
    }
  });

  it("full: everything but protected paths", () => {
    const p = with_({ preset: "full" });
    expect(decide(p, "Bash", { command: "npm install" }).behavior).toBe("allow");
    expect(decide(p, "mcp__other__tool", {}).behavior).toBe("allow");
  });

  it("the hub's own tools act as the session and need no approval in edit", () => {
    expect(decide(base, "mcp__teamhub__artifact_publish", { id: "x" }).behavior).toBe("allow");
    expect(decide(base, "mcp__other__tool", {}).behavior).toBe("ask");
  });
});

describe("allow rules", () => {
  it("match tool names, command prefixes and exact commands", () => {
    expect(ruleAllows("Bash(npm test:*)", "Bash", { command: "npm test -- --watch" })).toBe(true);
    expect(ruleAllows("Bash(npm test:*)", "Bash", { command: "npm testify" })).toBe(false);
    expect(ruleAllows("Bash(git status)", "Bash", { command: "git status" })).toBe(true);
    expect(ruleAllows("mcp__srv__*", "mcp__srv__do", {})).toBe(true);
    expect(decide(with_({ allowedTools: ["Bash(npm install:*)"] }), "Bash", { command: "npm install zod" }).behavior).toBe("allow");
  });
});

describe("read-only commands", () => {
  it.each(["ls", "cat a.txt | grep x", "git log --oneline", "find . -name '*.ts'"])("%s reads only", (c) => expect(isReadOnlyCommand(c)).toBe(true));
  it.each(["ls > out", "cat a; rm b", "echo $(whoami)", "find . -delete", "git push", "rm x", "npm test", "a && b"])("%s does not", (c) =>
    expect(isReadOnlyCommand(c)).toBe(false),
  );
});

describe("real paths and shell spelling", () => {
  const work = tempDir("policy");
  const outside = tempDir("policy-out");
  fs.writeFileSync(path.join(work, ".env"), "SECRET=1\n");
  fs.mkdirSync(path.join(work, ".git"));
  fs.writeFileSync(path.join(work, ".git", "config"), "[core]\n");
  fs.mkdirSync(path.join(work, "credentials"));
  fs.writeFileSync(path.join(work, "credentials", "key.pem"), "KEY\n");
  fs.mkdirSync(path.join(work, "node_modules"));
  fs.mkdirSync(path.join(work, "src"));
  fs.writeFileSync(path.join(work, "src", "a.ts"), "");
  fs.symlinkSync(".env", path.join(work, "link"));
  fs.symlinkSync(".git", path.join(work, "gitlink"));
  fs.symlinkSync(work, path.join(outside, "back"));
  const full = with_({ preset: "full", workDir: work });

  it("resolves symlinks and .. to the deepest existing ancestor", () => {
    expect(realPath("link", work)).toBe(path.join(work, ".env"));
    expect(realPath("gitlink/hooks/pre-commit", work)).toBe(path.join(work, ".git", "hooks", "pre-commit"));
    expect(realPath(`${outside}/back/src/../.env`, work)).toBe(path.join(work, ".env"));
    expect(protectedMatch("link", BUILTIN_PROTECTED, work)).toBe(".env*");
    expect(protectedMatch("gitlink/config", BUILTIN_PROTECTED, work)).toBe(".git/");
    expect(protectedMatch("src/a.ts", BUILTIN_PROTECTED, work)).toBeNull();
  });

  it("strips shell quoting before matching", () => {
    expect(shellWords(`cat .en""v '.e'nv .en\\v "a b" x=.env`)).toEqual(["cat", ".env", ".env", ".env", "a b", "x", ".env"]);
  });

  it("expands globs against the work dir, leaving dotfiles to patterns that name the dot", () => {
    expect(expandGlob(".en?", work)).toEqual([".en?", path.join(work, ".env")]);
    expect(expandGlob(".[e]nv", work)).toEqual([".[e]nv", path.join(work, ".env")]);
    expect(expandGlob("credential?/*.pem", work)).toEqual(["credential?/*.pem", path.join(work, "credentials", "key.pem")]);
    expect(expandGlob("*", work)).not.toContain(path.join(work, ".env"));
  });

  it.each([
    `cat .en""v`,
    "cat .en?",
    "cat .[e]nv",
    "tail .e*",
    `cat '.e'nv`,
    "cat .en\\v",
    "cat link",
    "cat credential?/key.pem",
    "cat gitlink/config",
    "sed -i s/a/b/ .gi?/config",
    "echo x > node_module?/x",
    `cat ${outside}/back/.env`,
  ])("denies %s even in full", (command) => {
    const d = decide(full, "Bash", { command });
    expect(d.behavior).toBe("deny");
    expect(d).toHaveProperty("protectedPath");
  });

  it("denies tools whose path leads through a link into a protected place", () => {
    expect(decide(full, "Write", { file_path: path.join(work, "gitlink", "hooks", "pre-commit") }).behavior).toBe("deny");
    expect(decide(full, "Read", { file_path: path.join(work, "src", "..", "link") }).behavior).toBe("deny");
    expect(decide(full, "Bash", { command: "ls src/*.ts" }).behavior).toBe("allow");
  });
});
