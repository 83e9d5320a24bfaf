/**
 * Runnable work trees (docs/worktrees.md#runnable-work-trees), end to end: a real git repository whose test needs an
 * installed dependency (a tarball committed in the repository, installed offline by `npm ci`) and a gitignored `.env`;
 * members with work trees of their own run `npm test` through the real `claude`'s Bash call in its sandbox. Also: a
 * setup that fails (no request reaches the model until it is fixed on the base branch and run again), a setup that
 * hangs (killed at its limit), the run command serving on the session's PORT, archive at discard, and what a session
 * must not be able to do with any of it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDir } from "../server/testing/temp-dir.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { portRangeFrom } from "./helpers/claude.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const TEAM = "rw";
const SETUP = "npm ci --offline --no-audit --no-fund --loglevel=error";
const CONFIG = { worktree: { setup: SETUP, run: "node server.mjs", archive: "test -f package.json && echo archived", ports: 1, setupTimeoutMs: 120_000 } };

let sh: SessionHub;
let repo: WorkTree;

/** A package in a tarball, packed by npm itself, committed in the repository: `npm ci` installs it with no registry. */
function packDependency(into: string): string {
  const src = tempDir("dep");
  fs.writeFileSync(path.join(src, "package.json"), JSON.stringify({ name: "tiny-dep", version: "1.0.0", type: "module", main: "index.js" }));
  fs.writeFileSync(path.join(src, "index.js"), "export const answer = (v) => `ok ${v}`;\n");
  fs.mkdirSync(into, { recursive: true });
  const file = execFileSync("npm", ["pack", "--silent", "--pack-destination", into], { cwd: src, encoding: "utf8" }).trim();
  fs.rmSync(src, { recursive: true, force: true });
  return file;
}

beforeAll(async () => {
  // A range of its own: hubs of test files running at the same time must not both hand out 24000 (nor this file in
  // the `oldest` project the same port as here).
  sh = await startSessionHub(directiveModel(), { TEAMHUB_PORT_RANGE: portRangeFrom(27300) });
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  const tarball = packDependency(path.join(sh.work, "vendor"));
  repo.write(
    "package.json",
    JSON.stringify({
      name: "demo",
      version: "1.0.0",
      private: true,
      type: "module",
      scripts: { test: "node test.mjs", dev: "node server.mjs" },
      dependencies: { "tiny-dep": `file:vendor/${tarball}` },
    }),
  );
  repo.write(
    "test.mjs",
    [
      'import fs from "node:fs";',
      'import { answer } from "tiny-dep";',
      'const env = Object.fromEntries(fs.readFileSync(".env", "utf8").trim().split("\\n").map((l) => l.split("=")));',
      "console.log(`${answer(env.VALUE)} port=${process.env.PORT}`);",
      "",
    ].join("\n"),
  );
  repo.write(
    "server.mjs",
    'import http from "node:http";\nhttp.createServer((q, r) => r.end(`hello from ${process.env.TEAMHUB_SESSION}`)).listen(Number(process.env.PORT), "127.0.0.1");\n',
  );
  repo.write(".gitignore", "node_modules/\n.env\nsecret.txt\n");
  repo.write(".worktreeinclude", ".env\n");
  repo.write("teamhub.json", JSON.stringify(CONFIG));
  // The lock file npm ci needs, made once on the host; node_modules stays out of the main work tree afterwards.
  execFileSync("npm", ["install", "--package-lock-only", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: sh.work });
  repo.commit("a runnable project");
  repo.write(".env", "VALUE=42\n");
  repo.write("secret.txt", "not for sessions\n");
  expect((await api(sh.hub, "PATCH", `/api/teams/${TEAM}/settings`, { gateEnforcement: "off" })).status).toBe(200);
}, 180_000);
afterAll(async () => sh?.close());

async function spawnMember(name: string, extra: Record<string, unknown> = {}) {
  const r = await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name, role: "dev", workDir: sh.work, allowedTools: ["Bash(npm test)"], ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { workDir: string; worktree: { path: string } };
}

async function turn(name: string, directives: string[]) {
  const r = await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: directives.join("\n"), wait: true, waitTimeoutMs: 120_000 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.interaction as { status: string; response: string };
}

const runnable = async (name: string) => (await api(sh.hub, "GET", `/api/sessions/${name}/runnable`)).body;
const events = async (type: string) => (await api(sh.hub, "GET", `/api/events?team=${TEAM}&type=${type}&limit=500`)).body.events as any[];

describe("members run the project in their own work trees", () => {
  it("installs with setup, copies the listed .env, gives each its own PORT, and npm test passes in both", { timeout: 240_000 }, async () => {
    const made = { alice: await spawnMember("alice"), bob: await spawnMember("bob") };
    for (const name of ["alice", "bob"]) await waitForSession(sh.hub, name, (s) => s.status === "idle", 180_000);

    const states = { alice: await runnable("alice"), bob: await runnable("bob") };
    for (const s of Object.values(states)) {
      expect(s).toMatchObject({ config: { source: "teamhub.json", setup: SETUP }, included: [".env"], setup: { status: "succeeded", exitCode: 0 } });
      expect(s.ports).toHaveLength(1);
    }
    expect(states.alice.ports[0]).not.toBe(states.bob.ports[0]);

    for (const name of ["alice", "bob"] as const) {
      const tree = made[name].worktree.path;
      expect(fs.existsSync(path.join(tree, "node_modules", "tiny-dep", "package.json"))).toBe(true);
      expect(fs.readFileSync(path.join(tree, ".env"), "utf8")).toBe("VALUE=42\n");
      expect(fs.existsSync(path.join(tree, "secret.txt"))).toBe(false);
      const done = await turn(name, ["@bash npm test", "@reply done"]);
      expect(done.status).toBe("completed");
    }
    // What the model's Bash call printed, as the CLI reported it back to the model.
    const results = JSON.stringify(sh.fake.requests.slice(-6));
    expect(results).toContain(`ok 42 port=${states.alice.ports[0]}`);
    expect(results).toContain(`ok 42 port=${states.bob.ports[0]}`);

    // The main work tree is the user's: nothing was installed there.
    expect(fs.existsSync(path.join(sh.work, "node_modules"))).toBe(false);
    expect(repo.status()).toBe("");

    // Setup's output was kept.
    const out = await api(sh.hub, "GET", `/api/sessions/alice/command-output?kind=setup`);
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ kind: "setup", running: false });
  });

  it("keeps the listed file readable only in the session's own tree, and .git and unlisted secrets protected", { timeout: 120_000 }, async () => {
    const own = (await runnable("alice")).included;
    expect(own).toEqual([".env"]);
    const aliceTree = (await api(sh.hub, "GET", "/api/sessions/alice")).body.worktree.path as string;
    const bobTree = (await api(sh.hub, "GET", "/api/sessions/bob")).body.worktree.path as string;
    const r = await turn("alice", [
      `@read ${path.join(aliceTree, ".env")}`,
      `@read ${path.join(bobTree, ".env")}`,
      `@read ${path.join(sh.work, ".env")}`,
      `@write ${path.join(aliceTree, ".git", "HEAD")}|ref: refs/heads/evil`,
    ]);
    expect(r.status).toBe("completed");
    const results = JSON.stringify(sh.fake.requests.at(-1));
    expect(results).toContain("VALUE=42");
    expect(results.match(/protected path/g)?.length).toBe(3);
    expect(fs.readFileSync(path.join(sh.work, ".env"), "utf8")).toBe("VALUE=42\n");
    expect(repo.git("branch", "--list", "evil")).toBe("");
  });

  it("reads teamhub.json from the base branch only: a session's own change runs for nobody else", { timeout: 180_000 }, async () => {
    const aliceTree = (await api(sh.hub, "GET", "/api/sessions/alice")).body.worktree.path as string;
    const evil = JSON.stringify({ worktree: { setup: "touch pwned-by-alice" } });
    // The CLI writes over a file only after reading it.
    await turn("alice", [`@read ${path.join(aliceTree, "teamhub.json")}`, `@write ${path.join(aliceTree, "teamhub.json")}|${evil}`]);
    expect(fs.readFileSync(path.join(aliceTree, "teamhub.json"), "utf8")).toBe(evil);
    const carol = await spawnMember("carol");
    await waitForSession(sh.hub, "carol", (s) => s.status === "idle", 180_000);
    expect((await runnable("carol")).config).toMatchObject({ setup: SETUP });
    expect(fs.existsSync(path.join(carol.worktree.path, "pwned-by-alice"))).toBe(false);
    expect(fs.existsSync(path.join(carol.worktree.path, "node_modules", "tiny-dep"))).toBe(true);
  });

  it("serves the run command on the session's PORT, stops it with the session, and runs archive at discard", { timeout: 120_000 }, async () => {
    const started = await api(sh.hub, "POST", "/api/sessions/carol/run", {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const port = (await runnable("carol")).ports[0] as number;
    const body = await vi.waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        return res.text();
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(body).toBe("hello from carol");
    expect(await runnable("carol")).toMatchObject({ run: { status: "running", url: `http://localhost:${port}` } });
    expect((await api(sh.hub, "POST", "/api/sessions/carol/run", {})).status).toBe(409);

    expect((await api(sh.hub, "POST", "/api/sessions/carol/stop", { wait: true })).status).toBe(200);
    await vi.waitFor(async () => expect((await runnable("carol")).run.status).toBe("stopped"), { timeout: 20_000, interval: 100 });
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();

    const discarded = await api(sh.hub, "POST", "/api/sessions/carol/discard", { confirm: true });
    expect(discarded.status, JSON.stringify(discarded.body)).toBe(200);
    const archived = (await events("worktree.archived")).filter((e) => e.payload.name === "carol");
    expect(archived).toMatchObject([{ payload: { ok: true, exitCode: 0 } }]);
    // Its port is free again: the next member gets it.
    await spawnMember("dave", { prompt: undefined });
    await waitForSession(sh.hub, "dave", (s) => s.status === "idle", 180_000);
    expect((await runnable("dave")).ports).toEqual([port]);
  });
});

describe("a setup that fails or hangs", () => {
  it("shows the problem, sends the model nothing, and lets the queued turn go once fixed on the base branch and run again", { timeout: 240_000 }, async () => {
    repo.git("checkout", "-q", "-b", "broken");
    repo.write("teamhub.json", JSON.stringify({ worktree: { setup: "echo installing; echo 'cannot install: no luck' >&2; exit 3" } }));
    repo.commit("a setup that fails");
    repo.git("checkout", "-q", "main");
    const before = sh.fake.requests.length;
    await spawnMember("erin", { base: "broken", prompt: "@reply first task done" });
    const failed = await waitForSession(sh.hub, "erin", (s) => s.status === "failed", 60_000);
    expect(failed.problem).toBe("setup failed (exit 3): cannot install: no luck");
    expect(await runnable("erin")).toMatchObject({ setup: { status: "failed", exitCode: 3 } });
    const attention = (await api(sh.hub, "GET", `/api/overview?team=${TEAM}`)).body;
    expect(JSON.stringify(attention)).toContain("setup failed (exit 3)");
    // A message resumes it, and setup, still failed, ends it again before any turn: the model hears nothing.
    expect((await api(sh.hub, "POST", "/api/sessions/erin/send", { message: "@reply second" })).status).toBe(200);
    await vi.waitFor(async () => expect((await events("session.exited")).filter((e) => e.payload.name === "erin")).toHaveLength(2), {
      timeout: 60_000,
      interval: 100,
    });
    expect((await api(sh.hub, "GET", "/api/sessions/erin")).body.problem).toBe("setup failed (exit 3): cannot install: no luck");
    expect(sh.fake.requests.length).toBe(before);

    repo.git("checkout", "-q", "broken");
    repo.write("teamhub.json", JSON.stringify({ worktree: { setup: "echo fixed" } }));
    repo.commit("fix the setup");
    repo.git("checkout", "-q", "main");
    const again = await api(sh.hub, "POST", "/api/sessions/erin/setup", {});
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await vi.waitFor(
      async () => {
        const h = (await api(sh.hub, "GET", "/api/sessions/erin/history")).body;
        expect(h.interactions.filter((i: any) => i.status === "completed")).toHaveLength(2);
      },
      { timeout: 120_000, interval: 200 },
    );
    expect(await runnable("erin")).toMatchObject({ setup: { status: "succeeded", exitCode: 0 } });
    const out = (await api(sh.hub, "GET", "/api/sessions/erin/command-output?kind=setup")).body;
    expect(out.pieces.map((p: any) => p.text).join("")).toContain("fixed");
  });

  it("kills a setup that hangs at its limit", { timeout: 120_000 }, async () => {
    repo.git("checkout", "-q", "-b", "hang");
    repo.write("teamhub.json", JSON.stringify({ worktree: { setup: "echo waiting; sleep 600", setupTimeoutMs: 2000 } }));
    repo.commit("a setup that hangs");
    repo.git("checkout", "-q", "main");
    await spawnMember("frank", { base: "hang" });
    const failed = await waitForSession(sh.hub, "frank", (s) => s.status === "failed", 60_000);
    expect(failed.problem).toBe("setup timed out after 0:02 and was killed");
    expect(await runnable("frank")).toMatchObject({ setup: { status: "failed" } });
  });
});
