/**
 * The package as a user installs it (docs/distribution.md): this checkout packed (`npm pack`, whose
 * prepack compiles and builds) and installed with `npm install -g` into a prefix of its own, by a user with an
 * empty HOME and only better-sqlite3's install script allowed. Then, from directories unrelated to the package and
 * to each other: `teamhub start` serves health and the dashboard in under 10 s with its data in ~/.teamhub; the CLI
 * (`demo`, `contract-list`, `setup`) and `teamhub mcp` find that hub; a plain .mjs imports the client library and a
 * TypeScript file type-checks against it; SIGTERM stops it. And an upgrade: a hub started where an earlier version
 * left its ./data keeps using it, with its data.
 *
 * Slow (it compiles, builds the dashboard when its sources changed, and installs ~300 packages from the
 * registry, better-sqlite3 from the prebuilt binary its install script looks for, made from the one `npm ci` compiled):
 * one install serves every test here.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDir } from "../server/testing/temp-dir.ts";
import { cli, ROOT, startHub } from "./helpers/hub-process.ts";
import { packAndInstall, sizeOf, startInstalled, userEnv, type InstalledPackage, type StartedPackage } from "./helpers/installed-package.ts";

/** npm pack and npm install, each stopped at its own limit (e2e/helpers/installed-package.ts). */
const INSTALL_TIMEOUT_MS = 25 * 60_000;
/** The installed package from `teamhub start` to health and the dashboard answering. */
const READY_WITHIN_MS = 10_000;

let pkg: InstalledPackage;
let hub: (StartedPackage & { url: string; readyMs: number }) | undefined;
const stopped: StartedPackage[] = [];

/** A directory of its own, unrelated to the package, the checkout and the others. */
const elsewhere = (label: string) => tempDir(`pkg-${label}`);

function run(bin: string, args: string[], cwd: string, env: Record<string, string> | NodeJS.ProcessEnv) {
  const r = spawnSync(bin, args, { cwd, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The file the started hub writes once it listens; a hub that exits instead ends the wait at once, with its output. */
async function waitForFile(file: string, started: StartedPackage, timeoutMs: number) {
  await vi.waitFor(
    () => {
      if (started.child.exitCode === null && !fs.existsSync(file)) throw new Error(`no ${file} after ${timeoutMs} ms:\n${started.output()}`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
  if (!fs.existsSync(file)) throw new Error(`the hub exited with ${started.child.exitCode}:\n${started.output()}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as { url: string };
}

async function stop(started: StartedPackage) {
  if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill("SIGTERM");
  return started.exited;
}

beforeAll(() => {
  pkg = packAndInstall(tempDir("package"));
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  for (const s of [hub, ...stopped]) if (s) await stop(s);
});

describe("the package", () => {
  it("holds what runs and nothing else: no tests, e2e, benches, docs sources, fixtures or TypeScript sources", () => {
    const r = spawnSync("tar", ["tzf", pkg.tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const files = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ""));
    expect(files.filter((f) => /(^|\/)(e2e|bench|docs|examples|fixtures?|testing|scripts)\/|\.test\.|\.bench\.|(?<!\.d)\.tsx?$/.test(f))).toEqual([]);
    for (const needed of ["bin/teamhub.mjs", "dist/cli/teamhub.js", "dist/lib/client/index.js", "dist/lib/client/index.d.ts", ".next/BUILD_ID"]) {
      expect(files).toContain(needed);
    }
    expect(files.some((f) => /^prisma\/migrations\/[^/]+\/migration\.sql$/.test(f))).toBe(true);
    expect(files.some((f) => /^prisma\/postgres\/migrations\/[^/]+\/migration\.sql$/.test(f))).toBe(true);
    expect(files.some((f) => f.startsWith(".next/cache/"))).toBe(false);
    // The command runs from its bundle (scripts/compile-dist.ts); the modules it was bundled from stay behind.
    expect(files.filter((f) => f.startsWith("dist/server/"))).toEqual([]);
  });

  it("runs on its production dependencies alone: no tsx, TypeScript, Prisma CLI or Claude Code installed with it", () => {
    const modules = path.join(pkg.dir, "node_modules");
    for (const dev of ["tsx", "typescript", "vitest", "prisma", "@prisma/client", "@anthropic-ai/claude-code", "eslint"]) {
      expect(fs.existsSync(path.join(modules, dev)), dev).toBe(false);
    }
    // better-sqlite3's install script took the prebuilt binary (e2e/helpers/installed-package.ts), compiling nothing.
    const native = path.join(modules, "better-sqlite3", "build", "Release");
    const built = fs.readFileSync(path.join(ROOT, "node_modules/better-sqlite3/build/Release/better_sqlite3.node"));
    expect(fs.readFileSync(path.join(native, "better_sqlite3.node")).equals(built)).toBe(true);
    expect(fs.existsSync(path.join(native, "obj.target"))).toBe(false);
    console.log(`[package] ${pkg.tarball}: ${(fs.statSync(pkg.tarball).size / 1e6).toFixed(1)} MB packed, ${(sizeOf(pkg.dir) / 1e6).toFixed(0)} MB installed`);
  });

  it(`starts from an unrelated directory, keeps its data in ~/.teamhub, and answers health and the dashboard in under ${READY_WITHIN_MS / 1000} s`, async () => {
    const started = startInstalled(pkg, elsewhere("start"), path.join(pkg.home, ".teamhub"), userEnv(pkg.home, pkg.prefix));
    const t0 = performance.now();
    const { url } = await waitForFile(started.hubFile, started, 60_000);
    const health = await fetch(`${url}/api/health`);
    const body = (await health.json()) as { ok: boolean; version: string; claudeCode: { range: string } };
    const page = await fetch(`${url}/`);
    const html = await page.text();
    const readyMs = performance.now() - t0;
    hub = { ...started, url, readyMs };
    console.log(`[package] teamhub start → health and dashboard: ${readyMs.toFixed(0)} ms`);
    expect(health.status).toBe(200);
    expect(body).toMatchObject({ ok: true, version: JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version });
    expect(body.claudeCode.range).toMatch(/^\d+\.\d+\.\d+ – \d+\.\d+\.\d+$/);
    expect(page.status).toBe(200);
    expect(html).toContain("<html");
    expect(readyMs).toBeLessThan(READY_WITHIN_MS);
    expect(fs.readdirSync(path.join(pkg.home, ".teamhub")).sort()).toEqual(expect.arrayContaining(["hub.json", "operator-token", "teamhub.db"]));
    expect(started.output()).not.toMatch(/building the dashboard/);
  }, 90_000);

  it("is found from another directory by the CLI: `teamhub demo`, then `teamhub contract-list`", () => {
    const env = userEnv(pkg.home, pkg.prefix);
    const demo = run(pkg.bin, ["demo"], elsewhere("demo"), env);
    expect(demo.code, demo.stderr).toBe(0);
    const list = run(pkg.bin, ["contract-list", "--json"], elsewhere("list"), env);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { items: Array<{ id: string }> }).items.map((c) => c.id).sort()).toEqual([
      "build-auth-api",
      "setup-user-model",
      "write-auth-tests",
    ]);
  });

  it('gives a plain .mjs its client library (`import { TeamHub } from "teamhub"`), with types for TypeScript', () => {
    const project = elsewhere("script");
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(pkg.dir, path.join(project, "node_modules", "teamhub"));
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
    fs.writeFileSync(
      path.join(project, "list.mjs"),
      [
        `import { TeamHub } from "teamhub";`,
        `const hub = new TeamHub({ url: process.env.TEAMHUB_URL, token: process.env.TEAMHUB_TOKEN });`,
        `const page = await hub.contracts.list({});`,
        `console.log(page.items.map((c) => c.id).sort().join(","));`,
      ].join("\n"),
    );
    const token = fs.readFileSync(path.join(pkg.home, ".teamhub", "operator-token"), "utf8").trim();
    const r = run(process.execPath, ["list.mjs"], project, userEnv(pkg.home, pkg.prefix, { TEAMHUB_URL: hub!.url, TEAMHUB_TOKEN: token }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("build-auth-api,setup-user-model,write-auth-tests");

    // The declarations: a script that uses the answer right compiles, one that misuses it is caught.
    fs.writeFileSync(
      path.join(project, "typed.ts"),
      [
        `import { TeamHub, HubError } from "teamhub";`,
        `const page = await new TeamHub().contracts.list({});`,
        `export const ids: string[] = page.items.map((c) => c.id);`,
        `export const wrong: number = page.items[0].title;`,
        `export const E = HubError;`,
      ].join("\n"),
    );
    const tsc = run(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "typed.ts"],
      project,
      process.env,
    );
    expect(tsc.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^typed\.ts\(4,14\): error TS2322: Type 'string' is not assignable to type 'number'\.$/),
    ]);
  }, 180_000);

  it("serves MCP over stdio from any directory (`teamhub mcp`): tools/list", async () => {
    const client = new Client({ name: "package-test", version: "1.0.0" });
    const env = userEnv(pkg.home, pkg.prefix);
    await client.connect(new StdioClientTransport({ command: pkg.bin, args: ["mcp"], cwd: elsewhere("mcp"), env, stderr: "pipe" }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["contract_list", "artifact_publish", "team_spawn"]));
      const listed = (await client.callTool({ name: "contract_list", arguments: {} })) as { content: Array<{ text: string }> };
      expect(listed.content[0].text).toContain("setup-user-model");
    } finally {
      await client.close();
    }
  });

  it("registers itself with Claude Code from any directory (`teamhub setup`), with the running hub's address", () => {
    const project = elsewhere("project");
    const noClaude = (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((d) => !fs.existsSync(path.join(d, "claude")))
      .join(path.delimiter);
    const env = userEnv(pkg.home, pkg.prefix, { PATH: `${path.join(pkg.prefix, "bin")}${path.delimiter}${noClaude}` });
    const r = run(pkg.bin, ["setup", "--local", "--project", project], elsewhere("setup"), env);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const config = JSON.parse(fs.readFileSync(path.join(pkg.home, ".claude.json"), "utf8"));
    expect(config.projects[project].mcpServers.teamhub).toMatchObject({ type: "http", url: `${hub!.url}/mcp` });
  });

  it("stops on SIGTERM and says so by leaving no hub.json", async () => {
    expect(await stop(hub!)).toBe(0);
    expect(fs.existsSync(hub!.hubFile)).toBe(false);
    hub = undefined;
  });

  it("upgrade: started where an earlier version left ./data, it keeps using that data and says how to move it", async () => {
    // An earlier version's layout: `npm start` in a directory kept the hub's data in ./data there.
    const work = elsewhere("legacy");
    const legacy = path.join(work, "data");
    const earlier = await startHub(legacy);
    expect(cli(legacy, ["demo"]).code).toBe(0);
    await earlier.kill();

    const home = elsewhere("home");
    const env = userEnv(home, pkg.prefix);
    const started = startInstalled(pkg, work, legacy, env);
    stopped.push(started);
    await waitForFile(started.hubFile, started, 60_000);
    expect(started.output()).toContain(`using ${legacy}, the data directory an earlier version made here`);
    expect(started.output()).toContain(`mv ${legacy} ${path.join(home, ".teamhub")}`);
    const list = run(pkg.bin, ["contract-list", "--json"], work, env);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { items: unknown[] }).items).toHaveLength(3);
    expect(fs.existsSync(path.join(home, ".teamhub"))).toBe(false);
    expect(await stop(started)).toBe(0);
  }, 120_000);
});
