/**
 * The Knowledge page in a real browser (docs/knowledge.md#dashboard): members' state updates, wisdom filtered by kind
 * and the exploration cache appear as they are posted, without a reload; screenshots in light, dark and at 390 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  for (const name of ["analyst", "builder"]) tokens[name] = (await api(hub, "POST", "/api/tokens", { name })).body.token;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

const as = (name: string, method: string, route: string, body: unknown) => api(hub, method, route, body, { authorization: `Bearer ${tokens[name]}` });

describe("the Knowledge page", () => {
  it("follows state updates, wisdom and the exploration cache live, and filters wisdom by kind", async () => {
    await page.goto(`${hub.url}/knowledge`);
    await waitLive(page);
    await expect.poll(() => page.getByTestId("team-state").innerText()).toContain("No state updates yet");

    expect((await api(hub, "POST", "/api/roster", { name: "analyst", role: "research" })).status).toBeLessThan(300);
    expect((await as("analyst", "POST", "/api/artifacts", { id: "auth-research", type: "custom", data: { cookies: true } })).status).toBe(201);
    const posted = await as("analyst", "POST", "/api/knowledge/state", {
      status: "completed",
      task: "Research auth token storage",
      ref: "auth-research",
      keyFindings: ["httpOnly cookies beat localStorage", "refresh tokens rotate"],
      decisions: [{ decision: "Cookies, not headers", rationale: "XSS cannot read them" }],
      filesModified: ["notes/auth.md"],
      verification: "peer-reviewed",
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    await as("builder", "POST", "/api/knowledge/state", { status: "blocked", task: "Build the login endpoint", verification: "self-validated" });
    await as("analyst", "POST", "/api/knowledge/wisdom", {
      kind: "learning",
      title: "The gateway strips cookies on /api/v1",
      body: "Use /api/v2 for anything that needs the session",
    });
    await as("builder", "POST", "/api/knowledge/wisdom", { kind: "issue", title: "Flaky refresh test", body: "Fails when the clock crosses a second" });
    await api(hub, "POST", "/api/continuity/patterns", {
      name: "error-envelope",
      description: "{error: {code, message, details}}",
      examples: ["{error: {code: 'not_found'}}"],
    });
    await as("analyst", "POST", "/api/knowledge/explorations", {
      angle: "Auth token storage",
      result: "httpOnly, SameSite=Lax cookies",
      ref: "auth-research@v1",
    });

    // The doors refuse what the domain refuses, and the page shows nothing of it.
    const edit = await as("builder", "PATCH", "/api/knowledge/wisdom/1", { body: "rewritten" });
    expect([edit.status, edit.body.error.code, edit.body.error.details.rule]).toEqual([409, "illegal_transition", "append_only"]);
    expect((await as("analyst", "DELETE", "/api/knowledge/wisdom/1", undefined)).status).toBe(409);
    const steal = await as("builder", "POST", "/api/knowledge/explorations", { angle: "auth-token-storage", result: "mine" });
    expect([steal.status, steal.body.error.details.operation]).toEqual([403, "exploration.update"]);
    const long = await as("builder", "POST", "/api/knowledge/state", {
      status: "completed",
      task: "t",
      verification: "tested",
      keyFindings: ["x".repeat(101)],
    });
    expect([long.status, long.body.error.details.issues[0].field]).toEqual([400, "keyFindings[0]"]);

    const analyst = page.getByTestId("state-analyst");
    await expect
      .poll(() => analyst.innerText())
      .toMatch(/analyst \(research\)[\s\S]*completed[\s\S]*peer-reviewed · Research auth token storage · auth-research@v1/);
    expect(await analyst.innerText()).toContain("httpOnly cookies beat localStorage");
    await expect.poll(() => page.getByTestId("state-builder").innerText()).toContain("blocked");
    await expect.poll(() => page.getByTestId("wisdom").innerText()).toContain("error-envelope");
    await expect.poll(() => page.getByTestId("angle-auth-token-storage").innerText()).toMatch(/auth-token-storage\s+httpOnly, SameSite=Lax cookies\s+analyst/);
    await screenshot(page, "knowledge");

    await page.getByRole("button", { name: "issue", exact: true }).click();
    await expect.poll(() => page.getByTestId("wisdom").innerText()).toContain("Flaky refresh test");
    expect(await page.getByTestId("wisdom").innerText()).not.toContain("The gateway strips cookies");
    await page.getByRole("button", { name: "all", exact: true }).click();

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.getByTestId("state-analyst").innerText()).toContain("auth-research@v1");
    await screenshot(page, "knowledge-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("state-analyst").innerText()).toContain("auth-research@v1");
    await screenshot(page, "knowledge-narrow");
  }, 180_000);
});
