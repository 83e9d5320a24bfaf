/**
 * The CLI's doors to runnable work trees (docs/worktrees.md#runnable-work-trees), against a real hub whose sessions run
 * the real `claude` against the fake API in a real git repository with a teamhub.json: `team-settings --worktree`
 * (refused naming the option, nothing written; set and cleared), `runnable`, `setup-log --follow` printing a setup's
 * output while it runs and ending with it, `run` / `run --stop` serving on the session's PORT, `setup <session>`, and the
 * refusals for a session that shares its work dir.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { portRangeFrom } from "./helpers/claude.ts";
import { api, BIN, cli, ROOT } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const TEAM = "rc";
// Setup prints, then waits for a file the test writes into the work tree: the test decides when it ends, no timer does.
const SETUP = "echo setting up; while [ ! -f go ]; do sleep 0.05; done; echo set up";
const CONFIG = { worktree: { setup: SETUP, run: "node server.mjs", ports: 2 } };

let sh: SessionHub;
let repo: WorkTree;
const run = (...args: string[]) => cli(sh.hub.dataDir, ["--team", TEAM, ...args]);
const runnable = async (name: string) => (await api(sh.hub, "GET", `/api/sessions/${name}/runnable`)).body;

/** The CLI as a child whose output the test reads while it runs (`setup-log --follow`). */
function running(args: string[]) {
  const child = spawn(process.execPath, [BIN, "--team", TEAM, ...args], {
    cwd: ROOT,
    env: { ...process.env, TEAMHUB_DATA_DIR: sh.hub.dataDir, TEAMHUB_URL: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number>((r) => child.once("close", (code) => r(code ?? -1)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

beforeAll(async () => {
  // A port range of its own: hubs of other test files lease theirs from the default range at the same time.
  sh = await startSessionHub(directiveModel(), { TEAMHUB_PORT_RANGE: portRangeFrom(27100) });
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write(
    "server.mjs",
    'import http from "node:http";\nconst port = Number(process.env.PORT);\n' +
      'http.createServer((q, r) => r.end(`hello on ${port}`)).listen(port, "127.0.0.1", () => console.log(`listening on ${port}`));\n',
  );
  repo.write(".gitignore", ".env\ngo\n");
  repo.write(".worktreeinclude", ".env\n");
  repo.write("teamhub.json", JSON.stringify(CONFIG));
  repo.commit("a runnable project");
  repo.write(".env", "VALUE=1\n");
  expect((await api(sh.hub, "PATCH", `/api/teams/${TEAM}/settings`, { gateEnforcement: "off" })).status).toBe(200);
});
afterAll(async () => sh?.close());

describe("teamhub team-settings --worktree", () => {
  it("refuses bad input naming --worktree and the field, and writes nothing", async () => {
    const changes = async () => (await api(sh.hub, "GET", `/api/events?team=${TEAM}&type=team.settings_changed`)).body.events.length;
    const before = await changes();
    const cases: Array<[string, string]> = [
      ['{"ports":-1}', "--worktree: ports: must be at least 0"],
      ['{"setupTimeoutMs":5}', "--worktree: setupTimeoutMs: must be at least 1000"],
      ['{"setpu":"npm ci"}', "--worktree: unknown field 'setpu' (the fields are setup, run, archive, ports, setupTimeoutMs)"],
      ["{setup: npm ci}", "--worktree: is not valid JSON"],
      ['"npm ci"', "--worktree: must be a JSON object"],
    ];
    for (const [value, message] of cases) {
      const r = run("team-settings", "--worktree", value);
      expect(r.code, value).toBe(2);
      expect(r.stderr, value).toContain(message);
      expect(r.stdout).toBe("");
    }
    expect(run("team-settings", "--json").json().worktree).toBeNull();
    expect(await changes()).toBe(before);
  });

  it("sets the team's worktree option and clears it with none", () => {
    const set = run("team-settings", "--worktree", '{"setup":"npm ci","ports":2}');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('worktree: {"setup":"npm ci","ports":2}');
    expect(run("team-settings", "--json").json().worktree).toEqual({ setup: "npm ci", ports: 2 });
    const cleared = run("team-settings", "--worktree", "none", "--json");
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.json().worktree).toBeNull();
    expect(run("team-settings").stdout).toContain("worktree: null");
  });
});

describe("a session's runnable work tree from the CLI", () => {
  it("refuses runnable, setup-log, setup <session> and run for a session sharing its work dir", { timeout: 120_000 }, async () => {
    const r = await api(sh.hub, "POST", "/api/sessions", { team: TEAM, name: "shared-one", workDir: sh.work, isolation: "shared" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    for (const args of [["runnable"], ["setup-log"], ["setup-log", "--follow"], ["setup"], ["run"]]) {
      const refused = run(...args, "shared-one");
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stderr, args.join(" ")).toContain("session 'shared-one' has no work tree of its own (isolation: shared)");
    }
    expect(run("setup-log", "alice-nobody").stderr).toContain("not_found");
    expect(run("setup-log", "shared-one", "--kind", "build").stderr).toContain("--kind: must be one of setup, run, archive, got 'build'");
  });

  it("follows setup while it runs, shows ports and copied files, and starts and stops the run command", { timeout: 180_000 }, async () => {
    const spawned = await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name: "alice", role: "dev", workDir: sh.work });
    expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
    const tree = spawned.body.worktree.path as string;
    await vi.waitFor(async () => expect((await runnable("alice")).setup.status).toBe("running"), { timeout: 60_000, interval: 50 });

    const follower = running(["setup-log", "alice", "--follow"]);
    // What setup printed so far, while it still runs: the follower is reading live, not after the end.
    await vi.waitFor(() => expect(follower.out()).toContain("setting up\n"), { timeout: 30_000, interval: 50 });
    expect(follower.child.exitCode).toBeNull();
    expect((await runnable("alice")).setup.status).toBe("running");
    fs.writeFileSync(path.join(tree, "go"), "");
    expect(await follower.exited, follower.err()).toBe(0);
    expect(follower.out()).toBe(`setting up\nset up\n(setup: ${SETUP} — succeeded (exit 0))\n`);

    await waitForSession(sh.hub, "alice", (s) => s.status === "idle", 60_000);
    const { ports } = await runnable("alice");
    expect(ports).toHaveLength(2);
    const shown = run("runnable", "alice");
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(
      [
        "alice: configured by teamhub.json",
        `ports: ${ports[0]} (PORT), ${ports[1]}`,
        "included: .env",
        `setup: ${SETUP} — succeeded (exit 0)`,
        "run: node server.mjs — not started",
        "",
      ].join("\n"),
    );
    expect(run("setup-log", "alice").stdout).toBe(`setting up\nset up\n(setup: ${SETUP} — succeeded (exit 0))\n`);

    // run: printed once the hub reports the command started, with the address it serves on.
    const started = run("run", "alice");
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain(`run: node server.mjs — running at http://localhost:${ports[0]}`);
    const body = await vi.waitFor(async () => (await fetch(`http://127.0.0.1:${ports[0]}/`)).text(), { timeout: 20_000, interval: 100 });
    expect(body).toBe(`hello on ${ports[0]}`);
    await vi.waitFor(() => expect(run("setup-log", "alice", "--kind", "run").stdout).toContain(`listening on ${ports[0]}`), { timeout: 10_000 });
    expect(run("run", "alice").stderr).toContain("is running already");

    const stopped = run("run", "alice", "--stop");
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain("run: node server.mjs — stopped");
    await expect(fetch(`http://127.0.0.1:${ports[0]}/`)).rejects.toThrow();
    expect(run("run", "alice", "--stop").stderr).toContain("is not running");
  });

  it("sets a stopped session's work tree up again, and setup-log --follow waits for it through pending", { timeout: 180_000 }, async () => {
    const live = run("setup", "alice");
    expect(live.code).toBe(2);
    expect(live.stderr).toContain("stop it before setting its work tree up again");
    // `teamhub setup` without a session registers Claude Code: its options and a session name do not mix.
    const mixed = run("setup", "alice", "--global");
    expect([mixed.code, mixed.stderr]).toEqual([
      2,
      "teamhub: --global: registers Claude Code and takes no session name ('teamhub setup alice' sets its work tree up again)\n",
    ]);
    expect((await api(sh.hub, "POST", "/api/sessions/alice/stop", { wait: true })).status).toBe(200);
    const pieces = (await api(sh.hub, "GET", "/api/sessions/alice/command-output?kind=setup")).body.pieces as Array<{ id: number }>;

    const again = run("setup", "alice");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`setup: ${SETUP} — pending (runs before the session's next turn)`);
    expect(again.stdout).toContain("teamhub setup-log alice --follow");
    const followed = running(["setup-log", "alice", "--follow", "--after", String(pieces.at(-1)!.id)]);
    expect(await followed.exited, followed.err()).toBe(0);
    // The go file is still in the tree: the second setup ends at once.
    expect(followed.out()).toBe(`setting up\nset up\n(setup: ${SETUP} — succeeded (exit 0))\n`);
    await waitForSession(sh.hub, "alice", (s) => s.status === "idle", 60_000);
  });
});
