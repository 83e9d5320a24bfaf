/**
 * A run, a snapshot and a replay with another approach, with code, using the real `claude` CLI and a real git
 * repository: a team member in a work tree of its own runs contract "build-api" and writes REST code (Write),
 * publishes and completes; a snapshot; the replay with a GraphQL override, started from the snapshots page, gives the
 * member a new branch where it writes GraphQL code. Both branches exist, the compare endpoint, `teamhub compare` and
 * MCP `worktree_compare` show api.ts going from REST to GraphQL, and so does the dashboard's compare page, reached
 * from the replay's result. On the way: the overview flags api.ts, which a second member changed too, and the
 * artifact page shows each version's code.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Reply } from "./fake-anthropic/server.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { mcp, memberOf, startOnNotice } from "./fake-anthropic/members.ts";
import { toolResults, type MessagesRequest } from "./fake-anthropic/request.ts";
import { SCREENSHOTS, launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, cliAsync } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const GRAPHQL = "Use GraphQL instead of REST";
const REST_CODE = [
  'import express from "express";',
  'import { login, logout } from "./auth";',
  "",
  "export const app = express();",
  'app.post("/login", login);',
  'app.post("/logout", logout);',
  "",
].join("\n");
const GRAPHQL_CODE = [
  'import { createSchema } from "graphql-yoga";',
  'import { login, logout } from "./auth";',
  "",
  "export const schema = createSchema({",
  "  typeDefs: `type Mutation { login(email: String!): Token  logout: Boolean }`,",
  "  resolvers: { Mutation: { login, logout } },",
  "});",
  "",
].join("\n");
const RUN = "teamhub/default/api-dev";
const REPLAY = `${RUN}-replay-1`;

type Started = { contract: { id: string }; inputs: { context?: string } };
const dirs: Record<string, string> = {};
/** What each member's current contract asked for, from its contract_start: the later rounds of the turn follow it. */
const started: Record<string, Started> = {};

/** A member woken for its contract: start it, read api.ts (absent in the first run), write the code the context asks for, publish. */
function member(req: MessagesRequest): Reply | undefined {
  const name = memberOf(req);
  if (!name) return undefined;
  const results = toolResults(req);
  if (results.length === 0) return startOnNotice(req, name);
  const last = results[results.length - 1];
  const file = path.join(dirs[name], "api.ts");
  if (last.name === "mcp__teamhub__contract_start" && !last.isError) {
    started[name] = JSON.parse(last.text) as Started;
    return { tools: [{ name: "Read", input: { file_path: file } }] };
  }
  const graphql = started[name]?.inputs.context === GRAPHQL;
  if (last.name === "Read") return { tools: [{ name: "Write", input: { file_path: file, content: graphql ? GRAPHQL_CODE : REST_CODE } }] };
  if (last.name === "Write" && !last.isError)
    return mcp("artifact_publish", {
      id: "api-contract",
      type: "api-contract",
      name: "API contract",
      data: { endpoints: [graphql ? { method: "POST", path: "/graphql" } : { method: "POST", path: "/login" }] },
      contractId: started[name].contract.id,
    });
  return { text: `${name} finished: ${last.name.replace("mcp__teamhub__", "")}${last.isError ? ` failed: ${last.text}` : ""}` };
}

let sh: SessionHub;
let repo: WorkTree;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel(member)), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("README.md", "# shop\n");
  repo.commit("start");
  expect((await api(sh.hub, "PATCH", "/api/teams/default/settings", { gateEnforcement: "off" })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const idle = (s: { status: string; queued: number; running: unknown }) => s.status === "idle" && s.queued === 0 && s.running === null;
const contract = async () => (await api(sh.hub, "GET", "/api/contracts/build-api")).body;
const versions = async () => (await api(sh.hub, "GET", "/api/artifacts/api-contract/history")).body.versions as Array<{ version: number; code: any }>;
const run = async (...args: string[]) => cliAsync(sh.hub.dataDir, args);
/** Full-page screenshots are taken from the top, so the sticky header sits where it belongs. */
async function shot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}
/** The same page in the dark theme and on a phone, once `ready` holds again after the reload. */
async function darkAndPhone(name: string, ready: () => Promise<unknown>) {
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await ready();
  await shot(`${name}-dark`);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await shot(`${name}-390`);
  await page.setViewportSize({ width: 1366, height: 768 });
}

describe("a replay with code: REST run, snapshot, GraphQL replay, the two runs' code compared", () => {
  it("keeps both runs on their branches and shows the diff between them over HTTP, CLI, MCP and the dashboard", async () => {
    for (const name of ["api-dev", "web-dev"]) {
      const r = await api(sh.hub, "POST", "/api/team-spawn", { name, role: "dev", workDir: sh.work });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.worktree).toMatchObject({ branch: `teamhub/default/${name}`, baseBranch: "main" });
      dirs[name] = r.body.workDir;
      await waitForSession(sh.hub, name, idle, 60_000);
    }
    // web-dev writes its own api.ts (the client's endpoint constant): the overview will flag the file.
    const written = await api(sh.hub, "POST", "/api/sessions/web-dev/send", {
      message: [`@write ${path.join(dirs["web-dev"], "api.ts")}|export const endpoint = "/api";`, "@reply written"].join("\n"),
      wait: true,
    });
    expect(written.body.interaction?.status, JSON.stringify(written.body)).toBe("completed");

    // The first run: REST.
    const created = await api(sh.hub, "POST", "/api/contracts", {
      id: "build-api",
      title: "Build the API",
      assignee: "api-dev",
      expectedOutputs: [{ artifactType: "api-contract" }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await vi.waitFor(async () => expect((await contract()).status).toBe("completed"), { timeout: 120_000, interval: 250 });
    await waitForSession(sh.hub, "api-dev", idle, 60_000);
    expect(fs.readFileSync(path.join(dirs["api-dev"], "api.ts"), "utf8")).toBe(REST_CODE);
    expect((await versions())[0].code).toMatchObject({ session: "api-dev", branch: RUN, checkpoint: true });

    // The overview flags api.ts, each session linked to its Changes tab.
    const overlaps = await api(sh.hub, "GET", "/api/worktree-overlaps?team=default");
    expect(overlaps.body.files).toMatchObject([{ path: "api.ts", sessions: ["api-dev", "web-dev"] }]);
    await page.goto(`${sh.hub.url}/?team=default`);
    const flagged = page.getByTestId("attention-overlap-api.ts");
    await expect.poll(() => flagged.innerText()).toBe("api.ts · changed by api-dev, web-dev");
    expect(await flagged.getByRole("link", { name: "web-dev" }).getAttribute("href")).toBe("/sessions/web-dev?tab=changes");
    await page.getByTestId("attention").screenshot({ path: path.join(SCREENSHOTS, "overview-overlaps.png") });

    // A snapshot of the REST run; the replay from the snapshots page, with the GraphQL override.
    expect((await api(sh.hub, "POST", "/api/snapshots", { id: "rest-done", label: "API built with REST" })).status).toBe(201);
    await page.goto(`${sh.hub.url}/snapshots?team=default`);
    await page.getByRole("button", { name: "replay rest-done", exact: true }).click();
    const editor = page.getByTestId("replay-editor");
    await expect
      .poll(() => editor.getByTestId("recorded-code").innerText())
      .toMatch(/Work trees recorded \(2\): api-dev teamhub\/default\/api-dev [0-9a-f]{7}/);
    await editor.screenshot({ path: path.join(SCREENSHOTS, "replay-code-replay-editor.png") });
    await editor.getByLabel("overrides (JSON)").fill(JSON.stringify({ "build-api": { inputs: { context: GRAPHQL } } }));
    await expect.poll(() => editor.getByRole("status").innerText()).toBe("1 contract overridden");
    await editor.getByRole("button", { name: "Replay rest-done" }).click();
    const preview = page.getByTestId("replay-preview");
    await expect.poll(() => preview.getByTestId("code-move-api-dev").innerText()).toMatch(/api-dev will get a new branch teamhub\/default\/api-dev → /);
    // The preview reads each work tree (into a throwaway index): web-dev's files are the snapshot's already.
    expect(await preview.getByTestId("code-move-web-dev").innerText()).toMatch(/^web-dev unchanged teamhub\/default\/web-dev @ [0-9a-f]{7}$/);
    await shot("replay-code-replay-preview");
    await page.locator("dialog[open]").getByRole("button", { name: "Replay rest-done", exact: true }).click();
    const result = page.getByTestId("rewind-result");
    await expect.poll(() => result.getByTestId("code-move-api-dev").innerText()).toContain(`new branch ${RUN} → ${REPLAY}`);
    expect(await result.getByTestId("code-move-web-dev").innerText()).toMatch(/^web-dev unchanged /);
    await page.getByTestId("rewind").screenshot({ path: path.join(SCREENSHOTS, "replay-code-replay-result.png") });

    // The re-run writes GraphQL on the new branch; the first run's REST code stays on the old one.
    await vi.waitFor(
      async () =>
        expect((await versions()).map((v) => [v.version, v.code?.branch])).toEqual([
          [1, RUN],
          [2, REPLAY],
        ]),
      { timeout: 120_000, interval: 250 },
    );
    await vi.waitFor(async () => expect((await contract()).status).toBe("completed"), { timeout: 60_000, interval: 250 });
    await waitForSession(sh.hub, "api-dev", idle, 60_000);
    expect(fs.readFileSync(path.join(dirs["api-dev"], "api.ts"), "utf8")).toBe(GRAPHQL_CODE);
    expect(repo.git("branch", "--list", "teamhub/*", "--format=%(refname:short)").split("\n").sort()).toEqual([RUN, REPLAY, "teamhub/default/web-dev"]);
    expect(repo.git("show", `${RUN}:api.ts`) + "\n").toBe(REST_CODE);

    // The diff between the runs, over HTTP …
    const compared = await api(sh.hub, "GET", `/api/worktree-compare?team=default&a=${encodeURIComponent(RUN)}&b=${encodeURIComponent(REPLAY)}`);
    expect(compared.status, JSON.stringify(compared.body)).toBe(200);
    expect(compared.body.files.map((f: any) => [f.path, f.change])).toEqual([["api.ts", "modified"]]);
    const lines: string[] = compared.body.files[0].hunks.flatMap((h: any) => h.lines);
    expect(lines).toContain('-app.post("/login", login);');
    expect(lines).toContain('+import { createSchema } from "graphql-yoga";');
    expect(lines).toContain(' import { login, logout } from "./auth";');

    // … the CLI (a bad branch name is refused naming the field) …
    const cli = await run("compare", RUN, REPLAY, "--patch");
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`M +${compared.body.files[0].additions} −${compared.body.files[0].deletions}\tapi.ts`);
    expect(cli.stdout).toContain('+import { createSchema } from "graphql-yoga";');
    const badCli = await run("compare", "x..y", REPLAY);
    expect(badCli.code).toBe(2);
    expect(badCli.stderr).toMatch(/\ba\b.*must be a branch name/);
    const unknown = await run("compare", RUN, "teamhub/default/nobody", "--json");
    expect(unknown.code).toBe(2);
    expect(unknown.json().error).toMatchObject({ code: "not_found" });
    expect(unknown.stdout).toContain('"b"');
    // The first run's branch is left: its session works on the replay's now.
    const left = await run("left-branches");
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toMatch(new RegExp(`^${RUN}\t[0-9a-f]{10}\tapi-dev \\(works on another branch\\)$`, "m"));

    // … MCP …
    const client = await httpClient(sh.hub.url, fs.readFileSync(path.join(sh.hub.dataDir, "operator-token"), "utf8").trim());
    try {
      const viaMcp = await call(client, "worktree_compare", { a: RUN, b: REPLAY });
      expect(viaMcp.isError, viaMcp.text).toBeFalsy();
      expect(viaMcp.json().files).toEqual(compared.body.files);
      const badMcp = await call(client, "worktree_compare", { a: RUN, b: "-x" });
      expect(badMcp.isError).toBe(true);
      expect(badMcp.text).toMatch(/\bb\b.*must be a branch name/);
      const leftMcp = await call(client, "worktree_left_branches", {});
      expect(leftMcp.json().branches).toEqual([expect.objectContaining({ branch: RUN, session: "api-dev", sessionExists: true })]);
    } finally {
      await client.close();
    }

    // … and the dashboard: the replay's result links the compare page, which shows api.ts going from REST to GraphQL.
    await result.getByTestId("compare-api-dev").click();
    await page.waitForURL(/\/compare\?/);
    const code = page.getByTestId("compare-code");
    const ready = async () => {
      await expect.poll(() => code.getByTestId("code-file").innerText(), { timeout: 15_000 }).toContain("graphql-yoga");
      await expect.poll(() => page.getByTestId("run-artifacts-b").innerText()).toContain("api-contract@v2");
    };
    await ready();
    expect(await page.getByTestId("compare-side-a").innerText()).toContain(RUN);
    expect(await page.getByTestId("compare-side-b").innerText()).toContain(REPLAY);
    // Its branch picker offers the left first run, saying whose it is.
    expect(await page.locator(`#compare-branches option[value="${RUN}"]`).getAttribute("label")).toBe("api-dev's, no session works on it");
    expect(await code.getByTestId("code-file").innerText()).toContain('app.post("/login", login);');
    expect(await page.getByTestId("run-artifacts-a").innerText()).toContain("api-contract@v1");
    await code.getByRole("button", { name: "split" }).click();
    await shot("replay-code-compare-split");
    await code.getByRole("button", { name: "unified" }).click();
    await shot("replay-code-compare");
    await darkAndPhone("replay-code-compare", ready);

    // The artifact page: each version's code, linked to the session's changes up to its commit.
    await page.goto(`${sh.hub.url}/artifacts/api-contract?team=default`);
    const v1 = page.getByTestId("version-1").getByTestId("code-ref");
    await expect.poll(() => v1.innerText()).toMatch(new RegExp(`^${RUN} [0-9a-f]{7} checkpoint$`));
    const commit = (await versions())[0].code.commit as string;
    expect(await v1.getByRole("link").getAttribute("href")).toBe(`/sessions/api-dev?tab=changes&at=${commit}`);
    expect(await page.getByTestId("version-2").getByTestId("code-ref").innerText()).toContain(REPLAY);
    // The publisher is a session of the team and the contract is on the canvas: both are links.
    await expect.poll(() => page.getByTestId("version-1").getByRole("link", { name: "api-dev", exact: true }).getAttribute("href")).toBe("/sessions/api-dev");
    expect(await page.getByTestId("version-1").getByRole("link", { name: "build-api" }).getAttribute("href")).toBe("/canvas?contract=build-api");
    await shot("replay-code-artifact-code");
  }, 300_000);
});
