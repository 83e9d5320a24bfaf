/**
 * What a sandboxed session's process sees, checked by running real bubblewrap with the command
 * line `sandboxCommand` builds, a shell standing in for the CLI; and that stop and kill reach the
 * process inside the sandbox through ClaudeProcess.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ClaudeProcess, type Exit } from "./child-process.ts";
import { checkSandbox } from "./sandbox-check.ts";
import { sandboxCommand, STATUS_FD, type SandboxInput } from "./sandbox.ts";
import { tempDir } from "../testing/temp-dir.ts";

const bwrap = checkSandbox("auto", "bwrap");
const root = tempDir("sandbox");

const put = (rel: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
// The default layout: the work dir holds the hub's data dir; HOME and the user's Claude config lie elsewhere.
const work = path.join(root, "work");
const data = path.join(work, "data");
const home = path.join(root, "home");
const ownConfig = path.join(data, "sessions", "2", "claude");
const login = path.join(home, ".claude", ".credentials.json");
put("work/src/a.ts", "export {};\n");
put("work/.env", "SECRET=env\n");
put("work/sub/.env.local", "SECRET=local\n");
put("work/credentials/key.pem", "SECRET=key\n");
put("work/deep/er/credentials/x", "SECRET=deep\n");
put("work/.git/config", "[core]\n");
put("work/node_modules/p/index.js", "1\n");
put("work/deploy/prod.yaml", "SECRET=prod\n");
put("work/data/operator-token", "SECRET=operator\n");
put("work/data/teamhub.db", "SECRET=db\n");
put("work/data/sessions/1/mcp.json", "SECRET=victim\n");
put("work/data/sessions/2/mcp.json", '{"own": true}\n');
put("work/data/sessions/1/claude/projects/-w/c-victim.jsonl", "SECRET=victim-conversation\n");
put("work/data/sessions/2/claude/projects/-w/c-own.jsonl", "own\n");
put("home/.ssh/id_rsa", "SECRET=home\n");
// The user's own Claude config: settings that would run in every session, their login, their state file.
put("home/.claude/settings.json", '{"hooks":"SECRET=settings"}\n');
put("home/.claude/CLAUDE.md", "SECRET=memory\n");
put("home/.claude/projects/-w/c-user.jsonl", "SECRET=user-conversation\n");
put("home/.claude/.credentials.json", '{"claudeAiOauth":{}}\n');
put("home/.claude.json", '{"mcpServers":"SECRET=state"}\n');
put("outside/secret.txt", "SECRET=outside\n");
fs.symlinkSync(path.join(root, "outside", "secret.txt"), path.join(work, "out-link"));
fs.symlinkSync(".env", path.join(work, "env-link"));
put("work/linked/.keep", "");
fs.symlinkSync("../real-creds", path.join(work, "linked", "credentials"));
put("work/real-creds/token", "SECRET=linked\n");

function input(overrides: Partial<SandboxInput> = {}): SandboxInput {
  return {
    bwrap: bwrap.kind === "bubblewrap" ? bwrap.bin : "bwrap",
    bin: "/bin/sh",
    args: [],
    workDir: work,
    // As config-dir.ts sets it: the session's own config dir, and the user's config dir for the login.
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: ownConfig,
      CLAUDE_SECURESTORAGE_CONFIG_DIR: path.join(home, ".claude"),
      TMPDIR: path.join(home, "tmp"),
      PATH: "/usr/bin:/bin",
    },
    hidden: [data, path.join(data, "teamhub.db"), path.join(home, ".claude"), path.join(home, ".claude.json")],
    mcpConfigFile: path.join(data, "sessions", "2", "mcp.json"),
    protectedPaths: ["deploy/prod.yaml", `${root}/outside/secret.txt`],
    ...overrides,
  };
}

/** Runs a shell script inside the sandbox and returns what it printed. */
async function inside(script: string, overrides: Partial<SandboxInput> = {}): Promise<string> {
  const cmd = await sandboxCommand(input({ args: ["-c", script], ...overrides }));
  const r = spawnSync(cmd.bin, cmd.args, {
    cwd: cmd.cwd,
    env: input(overrides).env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe.skipIf(bwrap.kind !== "bubblewrap")("the sandbox", () => {
  it("shows the work dir read-write and the system read-only", async () => {
    expect(await inside("cat src/a.ts; echo new > src/b.ts && cat src/b.ts; touch /usr/x 2>&1 || true; pwd")).toBe(
      `export {};\nnew\ntouch: cannot touch '/usr/x': Read-only file system\n${fs.realpathSync(work)}\n`,
    );
    expect(fs.readFileSync(path.join(work, "src", "b.ts"), "utf8")).toBe("new\n");
  });

  it("masks .env*, credentials/ and configured paths at any depth, through links too", async () => {
    const out = await inside(
      "cat .env sub/.env.local env-link deploy/prod.yaml; ls -A credentials deep/er/credentials linked/credentials/ real-creds; echo end",
    );
    expect(out).toBe("credentials:\n\ndeep/er/credentials:\n\nlinked/credentials/:\n\nreal-creds:\nend\n");
  });

  it("holds no capability, so no mask can be lifted, even when the hub runs as root", async () => {
    const out = await inside(
      "grep CapEff /proc/self/status; umount .env 2>/dev/null; umount data 2>/dev/null; umount -l credentials 2>/dev/null; cat .env data/operator-token credentials/key.pem 2>&1 | grep -c SECRET; true",
    );
    expect(out).toBe("CapEff:\t0000000000000000\n0\n");
  });

  it("keeps .git and node_modules readable but not writable", async () => {
    expect(await inside("cat .git/config; echo x >> .git/config 2>/dev/null || echo ro; touch node_modules/p/y 2>/dev/null || echo ro")).toBe(
      "[core]\nro\nro\n",
    );
  });

  it("in a session's own work tree (inside the hidden data dir): reads git history, edits files, cannot write .git", async () => {
    const repo = path.join(root, "repo");
    const tree = path.join(data, "worktrees", "k1");
    const git = (cwd: string, ...args: string[]) => {
      const r = spawnSync("git", args, {
        cwd,
        encoding: "utf8",
        env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
      });
      expect(r.status, r.stderr).toBe(0);
    };
    put("repo/a.txt", "one\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "a.txt");
    git(repo, "commit", "-q", "-m", "first");
    git(repo, "worktree", "add", "-q", "-b", "teamhub/t/s", tree);
    const out = await inside(
      "git log --format=%s; echo two > a.txt; git diff --stat | tail -1; git add a.txt 2>/dev/null || echo add refused; git commit -qam x 2>/dev/null || echo commit refused",
      { workDir: tree, ownTree: tree },
    );
    expect(out).toBe("first\n 1 file changed, 1 insertion(+), 1 deletion(-)\nadd refused\ncommit refused\n");
    expect(fs.readFileSync(path.join(tree, "a.txt"), "utf8")).toBe("two\n");
  });

  it("hides the hub's data dir but the session's own MCP config and CLI config dir", async () => {
    expect(
      await inside("find data | sort; cat data/sessions/2/mcp.json data/sessions/2/claude/projects/*/*; cat data/operator-token 2>/dev/null || echo gone"),
    ).toBe(
      [
        "data",
        "data/sessions",
        "data/sessions/2",
        "data/sessions/2/claude",
        "data/sessions/2/claude/projects",
        "data/sessions/2/claude/projects/-w",
        "data/sessions/2/claude/projects/-w/c-own.jsonl",
        "data/sessions/2/mcp.json",
        '{"own": true}',
        "own",
        "gone\n",
      ].join("\n"),
    );
  });

  it("shows of HOME only the user's login, a fresh TMPDIR, and nothing outside", async () => {
    const script = `ls -A "$HOME" "$HOME/.claude" "$TMPDIR" ${root}; cat "$HOME/.claude/.credentials.json"; cat "$HOME/.claude.json" "$HOME/.claude/settings.json" out-link ${root}/outside/secret.txt 2>/dev/null || echo none`;
    expect(await inside(script)).toBe(
      `${root}:\nhome\nwork\n\n${home}:\n.claude\ntmp\n\n${home}/.claude:\n.credentials.json\n\n${home}/tmp:\n{"claudeAiOauth":{}}\nnone\n`,
    );
  });

  it("without a login in the user's config dir, shows nothing of it", async () => {
    const { CLAUDE_SECURESTORAGE_CONFIG_DIR: _, ...env } = input().env;
    expect(await inside(`ls -A "$HOME"; ls "$HOME/.claude" 2>/dev/null || echo none`, { env })).toBe("tmp\nnone\n");
  });

  it("keeps what a session writes to its config dir in its own, and what it writes to the user's config path in a tmpfs", async () => {
    const settings = '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}';
    const out = await inside(
      `echo '${settings}' > "$CLAUDE_CONFIG_DIR/settings.json"; echo pwned > "$HOME/.claude/CLAUDE.md"; echo pwned > "$HOME/.claude.json"; cat "$CLAUDE_CONFIG_DIR/settings.json"`,
    );
    expect(out).toBe(`${settings}\n`);
    expect(fs.readFileSync(path.join(ownConfig, "settings.json"), "utf8")).toBe(`${settings}\n`);
    expect(fs.readFileSync(path.join(home, ".claude", "CLAUDE.md"), "utf8")).toBe("SECRET=memory\n");
    expect(fs.readFileSync(path.join(home, ".claude.json"), "utf8")).toBe('{"mcpServers":"SECRET=state"}\n');
    fs.rmSync(path.join(ownConfig, "settings.json"));
  });

  it("lets the CLI refresh the user's login in place: renaming over it fails (EBUSY), writing it reaches the user's file", async () => {
    // What CLI 2.1.197 does to store a refreshed token: a temporary file renamed over the login and, when the
    // rename fails with EXDEV, EPERM, EEXIST or EBUSY, the temporary file copied over it instead.
    const refresh =
      'cd "$CLAUDE_SECURESTORAGE_CONFIG_DIR"; echo \'{"fresh":1}\' > .credentials.json.tmp.1; mv .credentials.json.tmp.1 .credentials.json 2>&1; cp .credentials.json.tmp.1 .credentials.json; rm .credentials.json.tmp.1';
    try {
      expect(await inside(refresh)).toBe("mv: cannot move '.credentials.json.tmp.1' to '.credentials.json': Device or resource busy\n");
      expect(fs.readFileSync(login, "utf8")).toBe('{"fresh":1}\n');
      expect(fs.readdirSync(path.join(home, ".claude")).sort()).toEqual([".credentials.json", "CLAUDE.md", "projects", "settings.json"]);
    } finally {
      fs.writeFileSync(login, '{"claudeAiOauth":{}}\n');
    }
  });

  it("masks the user's config where the work dir holds it (a session started in HOME), but for the login", async () => {
    const script = `ls -A "$HOME" "$HOME/.claude"; cat "$HOME/.claude.json" .ssh/id_rsa; touch .claude/x 2>/dev/null && echo writable`;
    expect(await inside(script, { workDir: home })).toBe(
      `${home}:\n.claude\n.claude.json\n.ssh\ntmp\n\n${home}/.claude:\n.credentials.json\nSECRET=home\nwritable\n`,
    );
    const { CLAUDE_SECURESTORAGE_CONFIG_DIR: _, ...env } = input().env;
    expect(await inside(`ls -A .claude; touch .claude/x 2>/dev/null || echo ro`, { workDir: home, env })).toBe("ro\n");
    expect(fs.existsSync(path.join(home, ".claude", "x"))).toBe(false);
  });

  it("gives the process its own PID namespace, where it is pid 1 and sees no other process", async () => {
    const [self, pids, hub] = (
      await inside(`echo $$; ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' '; echo; kill -0 ${process.pid} 2>/dev/null || echo unreachable`)
    ).split("\n");
    expect([self, hub]).toEqual(["1", "unreachable"]);
    // Only the shell and the few processes of its own pipeline.
    expect(
      pids
        .trim()
        .split(" ")
        .map(Number)
        .every((p) => p < 10),
    ).toBe(true);
  });

  it("delivers SIGTERM to the process inside (bubblewrap itself forwards none) and SIGKILL ends the whole sandbox", async () => {
    const run = async (onTerm: string): Promise<Exit> => {
      const script = `trap '${onTerm}' TERM; echo ready; while :; do sleep 0.05; done`;
      const cmd = await sandboxCommand(input({ bin: "/bin/bash", args: ["-c", script] }));
      let ready!: () => void;
      const started = new Promise<void>((r) => (ready = r));
      const timing = { stopGraceMs: 200, interruptGraceMs: 200, termGraceMs: 500, controlTimeoutMs: 100 };
      const handlers = { onMessage() {}, onNoise: (line: string) => line === "ready" && ready(), onExit() {} };
      const proc = new ClaudeProcess(cmd.bin, cmd.args, { cwd: cmd.cwd, env: input().env, statusFd: STATUS_FD }, handlers, timing);
      await started;
      return proc.kill();
    };
    const graceful = await run("echo got TERM >&2; exit 3");
    expect(graceful).toMatchObject({ reason: "killed", code: 3 });
    expect(graceful.stderrTail).toContain("got TERM");
    const stubborn = await run("");
    expect(stubborn.reason).toBe("killed");
    expect(stubborn.signal).toBe("SIGKILL");
  });
});
