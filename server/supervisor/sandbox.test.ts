/**
 * What a sandboxed session's process sees, checked by running real bubblewrap with the command
 * line `sandboxCommand` builds, a shell standing in for the CLI; and that stop and kill reach the
 * process inside the sandbox through ClaudeProcess.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ClaudeProcess, type Exit } from "./child-process.ts";
import { checkSandbox } from "./sandbox-check.ts";
import { projectSlug, sandboxCommand, STATUS_FD, type SandboxInput } from "./sandbox.ts";

const bwrap = checkSandbox("auto", "bwrap");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-sandbox-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const put = (rel: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
// The default layout: the work dir holds the hub's data dir; HOME and the CLI's config lie elsewhere.
const work = path.join(root, "work");
const data = path.join(work, "data");
const home = path.join(root, "home");
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
put("home/.ssh/id_rsa", "SECRET=home\n");
put("home/.claude/settings.json", "{}\n");
// The CLI's login, as `claude /login` leaves it, and its state file beside the config dir.
put("home/.claude/.credentials.json", '{"claudeAiOauth":{}}\n');
put("home/.claude.json", '{"state":1}\n');
put(`home/.claude/projects/${projectSlug(fs.realpathSync(work))}/c-own.jsonl`, "own\n");
put("home/.claude/projects/odd-slug/c-parent.jsonl", "parent\n");
put("home/.claude/projects/-elsewhere/c-other.jsonl", "SECRET=transcript\n");
put("home/.claude/file-history/c-own/f", "own\n");
put("home/.claude/file-history/c-other/f", "SECRET=history\n");
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
    env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), TMPDIR: path.join(home, "tmp"), PATH: "/usr/bin:/bin" },
    hidden: [data, path.join(data, "teamhub.db")],
    mcpConfigFile: path.join(data, "sessions", "2", "mcp.json"),
    protectedPaths: ["deploy/prod.yaml", `${root}/outside/secret.txt`],
    conversations: ["c-own", "c-parent"],
    ...overrides,
  };
}

/** Runs a shell script inside the sandbox and returns what it printed. */
async function inside(script: string, overrides: Partial<SandboxInput> = {}): Promise<string> {
  const cmd = await sandboxCommand(input({ args: ["-c", script], ...overrides }));
  const r = spawnSync(cmd.bin, cmd.args, { cwd: cmd.cwd, env: input(overrides).env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 20_000, stdio: ["ignore", "pipe", "pipe", "pipe"] });
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
    const out = await inside("cat .env sub/.env.local env-link deploy/prod.yaml; ls -A credentials deep/er/credentials linked/credentials/ real-creds; echo end");
    expect(out).toBe("credentials:\n\ndeep/er/credentials:\n\nlinked/credentials/:\n\nreal-creds:\nend\n");
  });

  it("holds no capability, so no mask can be lifted, even when the hub runs as root", async () => {
    const out = await inside("grep CapEff /proc/self/status; umount .env 2>/dev/null; umount data 2>/dev/null; umount -l credentials 2>/dev/null; cat .env data/operator-token credentials/key.pem 2>&1 | grep -c SECRET; true");
    expect(out).toBe("CapEff:\t0000000000000000\n0\n");
  });

  it("keeps .git and node_modules readable but not writable", async () => {
    expect(await inside("cat .git/config; echo x >> .git/config 2>/dev/null || echo ro; touch node_modules/p/y 2>/dev/null || echo ro")).toBe("[core]\nro\nro\n");
  });

  it("hides the hub's data dir but the session's own MCP config", async () => {
    expect(await inside("find data | sort; cat data/sessions/2/mcp.json; cat data/operator-token 2>/dev/null || echo gone")).toBe(
      'data\ndata/sessions\ndata/sessions/2\ndata/sessions/2/mcp.json\n{"own": true}\ngone\n',
    );
  });

  it("shows only the CLI's config of HOME, a fresh TMPDIR, and nothing outside", async () => {
    expect(await inside(`ls -A "$HOME" "$HOME/.claude" "$TMPDIR" ${root}; cat out-link ${root}/outside/secret.txt 2>/dev/null || echo none`)).toBe(
      `${root}:\nhome\nwork\n\n${home}:\n.claude\ntmp\n\n${home}/.claude:\n.credentials.json\nfile-history\nprojects\nsettings.json\n\n${home}/tmp:\nnone\n`,
    );
  });

  it("shows the CLI's login without CLAUDE_CONFIG_DIR too: ~/.claude with its credentials, ~/.claude.json beside it, nothing else of HOME", async () => {
    const env = { HOME: home, TMPDIR: path.join(home, "tmp"), PATH: "/usr/bin:/bin" };
    expect(await inside(`ls -A "$HOME"; cat "$HOME/.claude/.credentials.json" "$HOME/.claude.json"; cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo none`, { env })).toBe(
      '.claude\n.claude.json\ntmp\n{"claudeAiOauth":{}}\n{"state":1}\nnone\n',
    );
  });

  it("shows, of the CLI's conversations, only this work dir's and this session's (and its fork parent's, wherever they are)", async () => {
    const out = await inside("cd $HOME/.claude; cat projects/*/* file-history/*/*; ls -A projects/-elsewhere file-history/c-other; touch projects/-elsewhere/x 2>/dev/null || echo ro");
    expect(out).toBe("own\nparent\nown\nfile-history/c-other:\n\nprojects/-elsewhere:\nro\n");
  });

  it("gives the process its own PID namespace, where it is pid 1 and sees no other process", async () => {
    const [self, pids, hub] = (await inside(`echo $$; ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' '; echo; kill -0 ${process.pid} 2>/dev/null || echo unreachable`)).split("\n");
    expect([self, hub]).toEqual(["1", "unreachable"]);
    // Only the shell and the few processes of its own pipeline.
    expect(pids.trim().split(" ").map(Number).every((p) => p < 10)).toBe(true);
  });

  it("names a work dir's project as the CLI does, long paths included", () => {
    expect(projectSlug("/tmp/tmp.zzRGJcxB0m")).toBe("-tmp-tmp-zzRGJcxB0m");
    // As the pinned CLI named it when run in this directory.
    expect(projectSlug(`/tmp/slugprobe/${"a".repeat(250)}`)).toBe(`-tmp-slugprobe-${"a".repeat(185)}-rdhzjl`);
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
