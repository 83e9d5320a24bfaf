/**
 * Why an artifact is stale, in a real browser against a real hub: the reported case (an API
 * republished from the new schema under a contract that still pinned the old one) explains itself
 * on the artifact page, with every version of the path a link, and in the overview's needs-attention list.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;

const ok = async (r: Promise<{ status: number; body: any }>) => {
  const { status, body } = await r;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};
const post = (route: string, body: unknown) => ok(api(hub, "POST", route, body));
const schema = (fields: string[], contractId?: string) =>
  post("/api/artifacts", { id: "schema-user-model", type: "schema-change", contractId, data: { models: [{ name: "User", fields }] } });
const reset = (derivedFrom: string) =>
  post("/api/artifacts", {
    id: "api-contract-reset",
    type: "api-contract",
    contractId: "build-reset",
    derivedFrom: [derivedFrom],
    data: { endpoints: [{ method: "POST", path: "/reset" }] },
  });

const WHY = "schema-user-model@v1 was superseded by schema-user-model@v2";
const PATH = "path: api-contract-reset@v2 ← schema-user-model@v1 (through contract build-reset's pinned input)";

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await post("/api/contracts", {
    id: "design-schema",
    title: "Design the user model",
    assignee: "db-dev",
    expectedOutputs: [{ artifactType: "schema-change", artifactId: "schema-user-model" }],
  });
  await post("/api/contracts", {
    id: "build-reset",
    title: "Password reset API",
    assignee: "api-dev",
    dependencies: [{ type: "contract", contractId: "design-schema" }],
    expectedOutputs: [{ artifactType: "api-contract", artifactId: "api-contract-reset" }],
  });
  await post("/api/contracts/design-schema/start", {});
  await schema(["email"], "design-schema");
  await post("/api/contracts/build-reset/start", {});
  await reset("schema-user-model@v1");
  await schema(["email", "resetToken"]);
  await post("/api/contracts/build-reset/reopen", { reason: "the schema changed" });
  await post("/api/contracts/build-reset/start", {});
  await reset("schema-user-model@v2");
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

const text = (testId: string) => page.getByTestId(testId).innerText();

describe("a stale artifact explains itself", () => {
  it("on its page: the root that changed, and the path through the contract's pinned input, each version a link", async () => {
    await page.goto(`${hub.url}/artifacts/api-contract-reset`);
    await waitLive(page);
    await expect.poll(() => text("stale-reason")).toBe(`${WHY}\n${PATH}`);
    expect(await page.getByTestId("stale-badge").getAttribute("title")).toBe(`${WHY}; ${PATH}`);
    await screenshot(page, "stale-why");

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => text("stale-reason")).toContain(WHY);
    await screenshot(page, "stale-why-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => text("stale-reason")).toContain(WHY);
    // A long path wraps inside the phone's width.
    const box = await page.getByTestId("stale-why").evaluate((e) => ({ right: e.getBoundingClientRect().right, overflow: e.scrollWidth - e.clientWidth }));
    expect(box.right).toBeLessThanOrEqual(390);
    expect(box.overflow).toBe(0);
    await screenshot(page, "stale-why-390");
    await page.setViewportSize({ width: 1366, height: 768 });

    await page.getByTestId("stale-reason").getByRole("link", { name: "schema-user-model@v1" }).click();
    await page.waitForURL(/\/artifacts\/schema-user-model\?.*version=1/);
    await expect.poll(() => page.getByRole("button", { name: "show v1" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("in the overview's needs-attention list: a row for the change, the artifact under it with its path", async () => {
    await page.goto(`${hub.url}/`);
    const row = page.getByTestId("attention-stale-schema-user-model@v1");
    await expect.poll(() => row.locator("summary").innerText()).toBe(`${WHY} 1 artifact`);
    expect(await row.getByRole("link", { name: "api-contract-reset@v2" }).getAttribute("title")).toBe(`${WHY}; ${PATH}`);
  });
});
