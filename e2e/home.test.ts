/**
 * The home page in a real browser: it shows what is in the database (teams, contracts by state,
 * contracts, artifacts, recent events) and follows changes over /ws without a reload.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

const text = (testId: string) => page.getByTestId(testId).innerText();

describe("home page", () => {
  it("starts empty and says how to begin", async () => {
    await page.goto(hub.url);
    await expect.poll(() => text("live")).toContain("live");
    await expect.poll(() => text("contracts")).toContain("No contracts in this team");
    await expect.poll(() => text("artifacts")).toContain("No artifacts in this team");
    await screenshot(page, "home-empty");
  });

  it("shows real data and follows new events without a reload", async () => {
    await api(hub, "POST", "/api/contracts", {
      id: "setup-user-model",
      title: "Create User schema",
      assignee: "db-dev",
      expectedOutputs: [{ artifactType: "schema-change" }],
    });
    await api(hub, "POST", "/api/contracts", {
      id: "build-auth-api",
      title: "Build auth endpoints",
      assignee: "api-dev",
      dependencies: [{ type: "contract", contractId: "setup-user-model" }],
      expectedOutputs: [{ artifactType: "api-contract" }],
    });
    await expect.poll(() => text("contract-build-auth-api")).toContain("pending");
    await expect.poll(() => text("state-ready")).toContain("1");
    await expect.poll(() => text("state-pending")).toContain("1");

    const navigations: string[] = [];
    page.on("framenavigated", (f) => navigations.push(f.url()));
    await api(hub, "POST", "/api/artifacts", { id: "schema-user-model", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } });

    await expect.poll(() => text("contract-setup-user-model")).toContain("completed");
    await expect.poll(() => text("contract-build-auth-api")).toContain("ready");
    await expect.poll(() => text("artifact-schema-user-model")).toContain("v1");
    await expect.poll(() => text("state-completed")).toContain("1");
    await expect.poll(() => text("events")).toContain("artifact.published");
    await expect.poll(() => text("teams")).toMatch(/default\s+1\s+2/);
    expect(navigations).toEqual([]);
    await screenshot(page, "home");
  });
});
