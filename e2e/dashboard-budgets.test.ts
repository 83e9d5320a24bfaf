/**
 * The budgets page in a real browser, with the real `claude` on the fake Messages API: spent, left,
 * burn and forecast of each budget; a refused budget shows the hub's message under its field; a
 * budget used up blocks a member's turn, which the overview lists and alerts, and setting a higher
 * amount on this page lets the turn run.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { usd } from "../lib/format.ts";
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

describe("the budgets page", () => {
  it("shows what each budget spent and has left, refuses bad input under its field, and a raise there lets a blocked turn run", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { name: "db-dev" })).status).toBe(201);
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle");
    await api(sh.hub, "PUT", "/api/budgets", { scope: "member", target: "db-dev", amountUsd: 0.3, period: "month" });
    await api(sh.hub, "PUT", "/api/budgets", { scope: "team", amountUsd: 0.25 });
    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "@usage 60000 0\n@reply spent", wait: true });

    await open("/");
    await api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "more please", wait: false });
    await expect
      .poll(() => page.getByTestId("alert").filter({ hasText: "db-dev" }).innerText(), { timeout: 30_000 })
      .toMatch(/db-dev is blocked by a budget\s+blocked: budget — team 'default': \$0\.3\d* spent of \$0\.25/);
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

  it("the overview's cost charts per member and per contract draw each budget as a line on the bar's scale", async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    expect((await api(sh.hub, "POST", "/api/contracts", { id: "schema", title: "Schema", assignee: "db-dev" })).status).toBe(201);
    expect((await api(sh.hub, "PUT", "/api/budgets", { scope: "contract", target: "schema", amountUsd: 1 })).status).toBe(200);
    const turn = await api(sh.hub, "POST", "/api/sessions/db-dev/send", {
      message: `@mcp contract_start {"id":"schema"}\n@usage 40000 0\n@reply started`,
      wait: true,
    });
    expect(turn.body.interaction.status).toBe("completed");
    const { perMember, perContract } = (await api(sh.hub, "GET", "/api/overview?team=default")).body.costs;
    const month = new Date().toISOString().slice(0, 7);
    // The figures are the budgets' own: what each spent in its window.
    const views = (await api(sh.hub, "GET", "/api/budgets")).body as Array<{ target: string | null; spentUsd: number }>;
    const spent = (target: string) => views.find((b) => b.target === target)!.spentUsd;
    expect(spent("schema")).toBeGreaterThan(0.2);
    expect(perMember).toEqual([{ name: "db-dev", costUsd: spent("db-dev"), window: month, budgetUsd: 2 }]);
    expect(perContract).toEqual([{ name: "schema", costUsd: spent("schema"), window: "lifetime", budgetUsd: 1 }]);

    await open("/");
    const rows = [
      ["cost-per-member", `db-dev ${usd(perMember[0].costUsd)} of $2.00 in ${month}`, perMember[0]],
      ["cost-per-contract", `schema ${usd(perContract[0].costUsd)} of $1.00`, perContract[0]],
    ] as const;
    for (const [chart, says, row] of rows) {
      const svg = page.getByTestId(chart).getByRole("img");
      await expect.poll(() => svg.getAttribute("aria-label")).toContain(says);
      // The dashed line is on the bar's scale: it stands where the budget's amount falls.
      const line = svg.locator("line.chart-limit");
      expect(await line.count()).toBe(1);
      const bar = svg.locator("rect.chart-bar");
      const [x, barX, barW] = [Number(await line.getAttribute("x1")), Number(await bar.getAttribute("x")), Number(await bar.getAttribute("width"))];
      expect((x - barX) / barW).toBeCloseTo(row.budgetUsd / row.costUsd, 1);
      expect(x).toBeLessThan(Number(await svg.getAttribute("width")));
    }
    await screenshot(page, "overview-cost-budgets");
    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.getByTestId("cost-per-member").locator("line.chart-limit").count()).toBe(1);
    await screenshot(page, "overview-cost-budgets-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("cost-per-contract").locator("line.chart-limit").count()).toBe(1);
    await screenshot(page, "overview-cost-budgets-narrow");
  }, 120_000);
});
