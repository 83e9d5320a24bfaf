/**
 * An empty hub in a real browser: the overview and the canvas offer a guided start (a team member, a contract,
 * the Quick Start demo, the Claude Code setup) instead of CLI strings, and the demo button makes the Quick Start
 * team and draws it on the canvas. The same operation over HTTP and the CLI, refused in a team that has work.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, cli, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

const text = (testId: string) => page.getByTestId(testId).innerText();
/** A page (re)loaded on a busy machine may take a while to open its /ws connection. */
const live = () => expect.poll(() => text("live"), { timeout: 15_000 }).toContain("live");
const node = (key: string) => page.locator(`.react-flow__node[data-id="${key}"]`);
const CONTRACTS = ["setup-user-model", "build-auth-api", "write-auth-tests"];
const ARTIFACTS = ["schema-user-model", "api-contract-user-auth", "test-results-auth"];

/** The guided start fits a phone; the rest of each page's 390 px layout is the phone layout's own test (dashboard-pages). */
async function themed(name: string, part: string) {
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await live();
  await screenshot(page, `${name}-dark`);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await live();
  const box = await page.getByTestId(part).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 860 });
}

describe("an empty hub", () => {
  it("offers the guided start on the overview, and its demo button makes the Quick Start team and its canvas", async () => {
    await page.goto(hub.url);
    await live();
    const start = page.getByTestId("empty-team");
    await expect.poll(() => start.innerText()).toContain("Team default has no contracts or artifacts yet.");
    expect(await text("teams")).toContain("No team has been written to yet: default is made by its first contract, artifact or member.");
    expect(await start.getByRole("link", { name: "connect Claude Code to this hub" }).getAttribute("href")).toBe("/settings#claude-code");
    await screenshot(page, "empty-overview");

    // Start a team member: the sessions page's form, ticked as a member, in a dialog.
    await start.getByRole("button", { name: "Start a team member" }).click();
    const member = page.getByTestId("start-member");
    await expect.poll(() => member.isVisible()).toBe(true);
    expect(await member.getByRole("checkbox").isChecked()).toBe(true);
    expect(await member.getByRole("button", { name: "Start team member" }).isVisible()).toBe(true);
    await screenshot(page, "empty-start-member");
    await member.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => member.isVisible()).toBe(false);

    // Create a contract: the canvas's contract form, with nobody filled in.
    await start.getByRole("button", { name: "Create a contract" }).click();
    const form = page.getByTestId("new-contract");
    await expect.poll(() => form.isVisible()).toBe(true);
    expect(await form.locator('input[name="assignee"]').inputValue()).toBe("");
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => form.isVisible()).toBe(false);

    await themed("empty-overview", "empty-team");

    await start.getByRole("button", { name: "Run the Quick Start demo" }).click();
    await expect.poll(() => page.getByTestId("canvas").getAttribute("data-nodes"), { timeout: 15_000 }).toBe("6");
    expect(new URL(page.url()).pathname).toBe("/canvas");
    for (const id of CONTRACTS) {
      await expect.poll(() => node(`contract:${id}`).locator("[data-status]").getAttribute("data-status")).toBe("completed");
    }
    for (const id of ARTIFACTS) expect(await node(`artifact:${id}`).innerText()).toContain(id);
    expect(await text("canvas-counts")).toBe("3 contracts · 3 artifacts · " + (await page.getByTestId("canvas").getAttribute("data-edges")) + " links");
    // The chain's lineage: each artifact derived from the one before.
    expect(await page.locator(".react-flow__edge").count()).toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId("canvas-empty").count()).toBe(0);
    await screenshot(page, "empty-demo-canvas");
    await themed("empty-demo-canvas", "canvas");

    // The overview no longer offers the start, and the hub refuses a second demo in this team.
    await page.goto(hub.url);
    await expect.poll(() => text("contracts")).toContain("write-auth-tests");
    expect(await page.getByTestId("empty-team").count()).toBe(0);
    const again = await api(hub, "POST", "/api/teams/default/demo", {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", details: { field: "team", rule: "empty_team", contracts: 3, artifacts: 3 } });
  });

  it("offers it on an empty canvas too, with a start button in the empty roster", async () => {
    await page.goto(`${hub.url}/canvas?team=blank`);
    await live();
    await expect.poll(() => text("canvas-empty")).toContain("Nothing in team blank yet");
    expect(await text("canvas-roster")).toContain("Nobody on the roster yet.");
    await page.getByTestId("roster-start-member").click();
    const member = page.getByTestId("start-member");
    await expect.poll(() => member.isVisible()).toBe(true);
    expect(await member.innerText()).toContain("Start a team member in blank");
    await member.getByRole("button", { name: "Close" }).click();
    await screenshot(page, "empty-canvas");
    await themed("empty-canvas", "get-started");

    // A member dropped on the start drawn over the graph opens the contract form, as a drop on the graph does.
    expect(cli(hub.dataDir, ["team-member", "ann", "--team", "blank"]).code).toBe(0);
    await page.getByTestId("member-ann").dragTo(page.getByTestId("get-started"));
    const form = page.getByTestId("new-contract");
    await expect.poll(() => form.locator('input[name="assignee"]').inputValue()).toBe("ann");
    await form.getByRole("button", { name: "Cancel" }).click();

    await page.getByTestId("canvas-empty").getByRole("button", { name: "Run the Quick Start demo" }).click();
    await expect.poll(() => page.getByTestId("canvas").getAttribute("data-nodes")).toBe("6");
    await expect.poll(() => node("contract:write-auth-tests").locator("[data-status]").getAttribute("data-status")).toBe("completed");
  });

  it("is `teamhub demo` on the CLI: the chain in an empty team, exit 2 with the hub's reason in a team with work", () => {
    const made = cli(hub.dataDir, ["demo", "--team", "from-cli"]);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("setup-user-model (completed) → build-auth-api (completed) → write-auth-tests (completed)");
    expect(made.stdout).toContain("schema-user-model@v1 → api-contract-user-auth@v1 → test-results-auth@v1");
    const refused = cli(hub.dataDir, ["demo", "--team", "from-cli"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("team 'from-cli' already has 3 contract(s) and 3 artifact(s)");
  });
});
