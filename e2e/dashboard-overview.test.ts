/**
 * The overview in a real browser, with the real `claude` on the fake Messages API: one upstream
 * change that made 24 artifacts stale is one needs-attention row naming the change and the count,
 * which opens to the artifacts; costs per member, contract and model with their totals; what a
 * budget has left; a table sorts by a clicked column. Screenshots light, dark and 390 px wide.
 */
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, SCREENSHOTS, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { dollars, usd } from "../lib/format.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;

const ok = async (r: Promise<{ status: number; body: any }>) => {
  const { status, body } = await r;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};
const post = (route: string, body: unknown) => ok(api(sh.hub, "POST", route, body));
const publish = (id: string, data: unknown, derivedFrom?: string[]) => post("/api/artifacts", { id, type: "custom", data, derivedFrom });
const APIS = Array.from({ length: 24 }, (_, i) => `api-${String(i).padStart(2, "0")}`);
const CHANGE = "schema-user-model@v1 was superseded by schema-user-model@v2";

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

/** The page as it is, then dark, then 390 px wide. */
async function views(name: string) {
  const settle = async () => {
    await waitLive(page);
    await expect.poll(() => page.getByTestId("cost-total").innerText()).toMatch(/^\$/);
  };
  await screenshot(page, name);
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await settle();
  await screenshot(page, `${name}-dark`);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await settle();
  await screenshot(page, `${name}-390`);
  // The card alone, at the phone's own scale, where the full page shrinks it past reading.
  await page.getByTestId("costs").screenshot({ path: path.join(SCREENSHOTS, `${name}-390-card.png`) });
}

describe("the overview", () => {
  it("shows one upstream change that made 24 artifacts stale as one row naming it and the count, which opens to them", async () => {
    await publish("schema-user-model", { fields: ["email"] });
    await publish("config", { v: 1 });
    for (const id of APIS) await publish(id, {}, ["schema-user-model@v1"]);
    await publish("deploy", {}, ["config@v1"]);
    await publish("schema-user-model", { fields: ["email", "resetToken"] });
    await publish("config", { v: 2 });

    await open("/");
    const stale = page.getByRole("region", { name: "Stale artifacts" });
    await expect.poll(() => stale.locator("li.cause-row").count()).toBe(2);
    const row = page.getByTestId("attention-stale-schema-user-model@v1");
    const summary = row.locator("summary");
    expect(await summary.innerText()).toBe(`${CHANGE} 24 artifacts`);
    expect(await stale.getByRole("heading").innerText()).toBe("Stale artifacts 25");
    // A large group is one row until opened: none of its 24 artifacts is on the page yet.
    expect(await row.getByRole("link").count()).toBe(0);
    // The small one shows its artifact at once.
    await expect.poll(() => page.getByTestId("attention-stale-config@v1").getByRole("link").allInnerTexts()).toEqual(["deploy@v1"]);
    const closed = await page.getByTestId("attention").boundingBox();

    await summary.click();
    await expect.poll(() => row.getByRole("link").allInnerTexts()).toEqual(APIS.map((id) => `${id}@v1`));
    expect(await row.getByRole("link", { name: "api-07@v1" }).getAttribute("title")).toBe(`${CHANGE}; path: api-07@v1 ← schema-user-model@v1 (derivedFrom)`);
    await screenshot(page, "overview-attention-causes");
    // Opened, the 24 wrap side by side: the card grows by a few lines, not by a row per artifact.
    const opened = await page.getByTestId("attention").boundingBox();
    expect(opened!.height - closed!.height).toBeLessThan(24 * 10);

    await row.getByRole("link", { name: "api-07@v1" }).click();
    await page.waitForURL(/\/artifacts\/api-07/);
  });

  it("shows the cost per member, contract and model with totals, what each budget has left, and sorts a table by a clicked column", async () => {
    await ok(api(sh.hub, "POST", "/api/team-spawn", { name: "db-dev" }));
    await ok(api(sh.hub, "POST", "/api/team-spawn", { name: "qa-dev", model: "haiku" }));
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle");
    await waitForSession(sh.hub, "qa-dev", (s) => s.status === "idle");
    await post("/api/contracts", { id: "schema", title: "Schema", assignee: "db-dev" });
    await ok(api(sh.hub, "PUT", "/api/budgets", { scope: "team", amountUsd: 5 }));
    await ok(api(sh.hub, "PUT", "/api/budgets", { scope: "member", target: "qa-dev", amountUsd: 1 }));
    const turns = [
      ["db-dev", `@mcp contract_start {"id":"schema"}\n@usage 40000 0\n@reply started`],
      ["qa-dev", "@usage 20000 0\n@reply checked"],
    ];
    for (const [name, message] of turns) {
      const turn = await post(`/api/sessions/${name}/send`, { message, wait: true });
      expect(turn.interaction.status).toBe("completed");
    }
    const { costs } = await ok(api(sh.hub, "GET", "/api/overview?team=default"));
    expect(costs.perMember.map((m: { name: string }) => m.name).sort()).toEqual(["db-dev", "qa-dev"]);
    expect(costs.perContract.map((c: { name: string }) => c.name)).toEqual(["schema"]);
    expect(costs.perModel).toHaveLength(2);
    const sum = (rows: Array<{ costUsd: number }>) => rows.reduce((n, r) => n + r.costUsd, 0);
    expect(sum(costs.perModel)).toBeCloseTo(costs.totalUsd, 10);

    await open("/");
    await expect.poll(() => page.getByTestId("cost-total").innerText()).toBe(usd(costs.totalUsd));
    // Per member: the chart's table, opened, has the total of its rows.
    const members = page.getByTestId("cost-per-member");
    await members.getByText("Cost per member as a table").click();
    expect(await members.locator("tfoot").innerText()).toBe(`Total\t${usd(sum(costs.perMember))}`);
    await expect.poll(() => page.getByTestId("cost-per-contract").getByRole("img").getAttribute("aria-label")).toContain("schema $");
    // Per model: a table with the sessions and cost of each and their totals.
    const models = page.getByTestId("cost-per-model");
    expect(await models.getByTestId("cost-model-total").innerText()).toBe(`Total\t2\t${usd(costs.totalUsd)}`);
    expect(await models.locator("tbody tr").count()).toBe(2);

    // The budgets: spent, and what is left.
    const team = costs.budgets.find((b: { scope: string }) => b.scope === "team");
    expect(team.leftUsd).toBeCloseTo(5 - costs.totalUsd, 10);
    await expect
      .poll(() => page.getByTestId("budget-team-default").innerText())
      .toMatch(new RegExp(`team default\\s+\\${dollars(team.spentUsd)}\\s+of \\$5\\.00\\s+\\${dollars(team.leftUsd)}`));

    // Sorting: the member table by cost, largest first, then flipped; by name, a to z.
    const names = () => members.locator("tbody tr td:first-child").allInnerTexts();
    const byCost = [...costs.perMember].sort((a: { costUsd: number }, b: { costUsd: number }) => b.costUsd - a.costUsd).map((m: { name: string }) => m.name);
    await members.getByRole("button", { name: "Cost", exact: true }).click();
    await expect.poll(names).toEqual(byCost);
    expect(await members.locator("th", { hasText: "Cost" }).getAttribute("aria-sort")).toBe("descending");
    await members.getByRole("button", { name: "Cost", exact: true }).click();
    await expect.poll(names).toEqual([...byCost].reverse());
    await members.getByRole("button", { name: "Member", exact: true }).click();
    await expect.poll(names).toEqual(["db-dev", "qa-dev"]);

    await views("overview-costs");
    // At 390 px the cards of this test scroll down, never sideways.
    for (const card of ["attention", "costs"]) expect(await page.getByTestId(card).evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 180_000);
});
