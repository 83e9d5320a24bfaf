/**
 * A token budget on the dashboard, with the real `claude` on the fake Messages API
 * (docs/budgets.md#tokens): set on the Budgets page's form in tokens (a refusal under the field it
 * names), shown as "60k of 50k tokens", and once used up, raised in place from the overview's
 * needs-attention row, which lets the blocked turn run.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
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
  await waitLive(page);
}

describe("a token budget on the dashboard", () => {
  it("is set in tokens on the Budgets page, shows tokens spent of its amount, and is raised in place where it blocks", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { name: "db-dev" })).status).toBe(201);
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle");

    await open("/budgets");
    await page.getByLabel("budget scope").selectOption("member");
    await page.getByLabel("budget target").fill("db-dev");
    await page.getByLabel("budget unit").selectOption("tokens");
    await page.getByLabel("budget amount").fill("0");
    await page.getByRole("button", { name: "Set budget" }).click();
    await expect.poll(() => page.getByTestId("budget-error-amountTokens").innerText()).toBe("must be at least 1 token");
    expect((await api(sh.hub, "GET", "/api/budgets")).body).toEqual([]);
    await page.getByLabel("budget amount").fill("50000");
    await page.getByRole("button", { name: "Set budget" }).click();
    await expect.poll(() => page.getByTestId("budget-member-db-dev-tokens").innerText()).toMatch(/member db-dev \(tokens\)\s+0 of 50k tokens\s+50k tokens/);

    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "@usage 60000 0\n@reply spent", wait: true });
    await expect.poll(() => page.getByTestId("budget-member-db-dev-tokens").innerText()).toMatch(/60(\.\d+)?k of 50k tokens\s+used up/);
    await screenshot(page, "budgets-tokens");

    await open("/");
    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "more please", wait: false });
    const row = page.getByTestId("attention-budget-member-db-dev-tokens");
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).toMatch(/member db-dev \(tokens\) · 60(\.\d+)?k tokens spent of 50k tokens[\s\S]*used up/);
    const raise = page.getByTestId("raise-member-db-dev-tokens").first();
    // The suggestion leaves room in whole thousands of tokens: spent (60k and the CLI's own few) plus the old amount.
    const suggested = await raise.getByLabel("new amount for member db-dev (tokens)").inputValue();
    expect(suggested).toMatch(/^11\d000$/);
    await screenshot(page, "overview-budget-tokens-blocked");
    await raise.getByRole("button", { name: "Raise" }).click();
    const done = await waitForSession(sh.hub, "db-dev", (s) => s.problem === null && s.interactions === 2, 60_000);
    expect(done.lastOutput).toBe("pong: more please");
    const view = (await api(sh.hub, "GET", "/api/budgets")).body[0];
    expect(view).toMatchObject({ unit: "tokens", amountTokens: Number(suggested), amountUsd: null, usedUp: false });

    await open("/budgets");
    await expect
      .poll(() => page.getByTestId("budget-member-db-dev-tokens").innerText())
      .toMatch(new RegExp(`6\\d(\\.\\d+)?k of ${Number(suggested) / 1000}k tokens`));
    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.getByTestId("budget-member-db-dev-tokens").innerText()).toContain(`of ${Number(suggested) / 1000}k tokens`);
    await screenshot(page, "budgets-tokens-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("budget-member-db-dev-tokens").innerText()).toContain(`of ${Number(suggested) / 1000}k tokens`);
    expect(await sideways(page)).toEqual([]);
    await screenshot(page, "budgets-tokens-narrow");
  }, 240_000);
});
