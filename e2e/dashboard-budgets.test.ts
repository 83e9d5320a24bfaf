/**
 * The budgets page in a real browser, with the real `claude` on the fake Messages API: spent, left,
 * burn and forecast of each budget; a refused budget shows the hub's message under its field; a
 * budget used up blocks a member's turn, which the overview lists and alerts, and setting a higher
 * amount on this page lets the turn run.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

async function open(route: string) {
  await page.goto(`${sh.hub.url}${route}`);
  await expect.poll(() => page.getByTestId("live").innerText()).toContain("live");
}

describe("the budgets page", () => {
  it("shows what each budget spent and has left, refuses bad input under its field, and a raise there lets a blocked turn run", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { name: "db-dev" })).status).toBe(201);
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle");
    await api(sh.hub, "PUT", "/api/budgets", { scope: "member", target: "db-dev", amountUsd: 0.3, period: "month" });
    await api(sh.hub, "PUT", "/api/budgets", { scope: "team", amountUsd: 0.25 });
    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "@usage 60000 0\n@reply spent", wait: true });

    await open("/");
    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "more please", wait: false });
    await expect.poll(() => page.getByTestId("alert").filter({ hasText: "db-dev" }).innerText(), { timeout: 30_000 }).toMatch(/db-dev is blocked by a budget\s+blocked: budget — team 'default': \$0\.3\d* spent of \$0\.25/);
    await expect.poll(() => page.getByTestId("attention-budget-team-default").innerText()).toMatch(/team default · \$0\.3\d* spent of \$0\.25[\s\S]*used up/);
    await screenshot(page, "overview-budget-blocked");

    await open("/budgets");
    const team = page.getByTestId("budget-team-default");
    await expect.poll(() => team.innerText()).toMatch(/team default\s+\$0\.3\d* of \$0\.25\s+used up\s+\$0\.0\d+\s+no end\s+lifetime/);
    await expect.poll(() => page.getByTestId("budget-member-db-dev").innerText()).toMatch(/member db-dev\s+\$0\.3\d* of \$0\.30/);
    await screenshot(page, "budgets");

    await page.getByLabel("budget amount").fill("-2");
    await page.getByRole("button", { name: "Set budget" }).click();
    await expect.poll(() => page.getByTestId("budget-error-amountUsd").innerText()).toBe("must not be negative");
    expect((await api(sh.hub, "GET", "/api/budgets")).body.find((b: { scope: string }) => b.scope === "team").amountUsd).toBe(0.25);

    await page.getByLabel("budget amount").fill("5");
    await page.getByRole("button", { name: "Set budget" }).click();
    // Still blocked by db-dev's own budget, which the problem now names; raising that one too lets it run.
    await expect.poll(async () => (await api(sh.hub, "GET", "/api/sessions/db-dev")).body.problem).toMatch(/^blocked: budget — member 'db-dev'/);
    await page.getByLabel("budget scope").selectOption("member");
    await page.getByLabel("budget target").fill("db-dev");
    await page.getByLabel("budget amount").fill("2");
    await page.getByLabel("budget period").selectOption("month");
    await page.getByRole("button", { name: "Set budget" }).click();
    const done = await waitForSession(sh.hub, "db-dev", (s) => s.problem === null && s.interactions === 2, 60_000);
    expect(done.lastOutput).toBe("pong: more please");
    await expect.poll(() => page.getByTestId("budget-member-db-dev").innerText()).toMatch(/of \$2\.00\s+\$1\.6\d*/);
    await expect.poll(() => page.getByTestId("budget-member-db-dev").innerText()).toMatch(/\d{4}-\d{2}/);

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.getByTestId("budget-team-default").innerText()).toContain("team default");
    await screenshot(page, "budgets-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("budget-team-default").innerText()).toContain("team default");
    await screenshot(page, "budgets-narrow");
  }, 240_000);
});
