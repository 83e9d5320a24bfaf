/**
 * The approvals queue with the real `claude` on the fake Messages API: three sessions each wait for a Bash
 * permission; the nav counts them; two are allowed at once from the queue and their turns continue; the third
 * is denied over the CLI's bulk `teamhub decide`. With more waiting than the queue lists, the nav and the queue count
 * them all.
 */
import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, cli } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

describe("approvals queue", () => {
  it("allows two waiting requests at once, their turns go on; the CLI denies the third", async () => {
    const marker = (name: string) => path.join(sh.work, `${name}.done`);
    for (const name of ["q1", "q2", "q3"]) {
      const r = await api(sh.hub, "POST", "/api/sessions", { name, preset: "edit", prompt: `@bash touch ${marker(name)}\n@reply finished` });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    for (const name of ["q1", "q2", "q3"]) await waitForSession(sh.hub, name, (s) => s.status === "waiting_permission", 60_000);
    const pending = (await api(sh.hub, "GET", "/api/approvals?status=pending")).body as { id: number; session: string }[];
    const idOf = (name: string) => pending.find((a) => a.session === name)!.id;

    await page.goto(`${sh.hub.url}/approvals`);
    await expect.poll(() => page.getByTestId("approvals-waiting").innerText(), { timeout: 30_000 }).toBe("3");
    await expect.poll(() => page.getByTestId("approvals-queue").locator("tbody tr").count()).toBe(3);
    expect(await page.getByTestId(`queued-${idOf("q1")}`).innerText()).toContain(`touch ${marker("q1")}`);
    await screenshot(page, "approvals-queue");

    await page.getByLabel(`select request ${idOf("q1")}`).check();
    await page.getByLabel(`select request ${idOf("q2")}`).check();
    await page.getByLabel("note for the selected requests").fill("both fine");
    await page.getByRole("button", { name: "Allow selected (2)" }).click();
    await expect.poll(() => page.getByTestId("approvals-outcome").innerText()).toBe("Allowed 2 requests.");
    for (const name of ["q1", "q2"]) await waitForSession(sh.hub, name, (s) => s.status === "idle", 60_000);
    expect(fs.existsSync(marker("q1")) && fs.existsSync(marker("q2"))).toBe(true);
    await expect.poll(() => page.getByTestId("approvals-waiting").innerText()).toBe("1");
    await expect.poll(() => page.getByTestId("approvals-decided").innerText()).toMatch(/q1\s+Bash\s+allowed\s+operator/);

    const denial = cli(sh.hub.dataDir, ["decide", "deny", String(idOf("q3")), String(idOf("q1")), "--note", "not now"]);
    expect(denial.code, denial.stderr).toBe(0);
    expect(denial.stdout).toContain(`approval ${idOf("q3")} (q3, Bash): denied`);
    expect(denial.stdout).toContain(`approval ${idOf("q1")}: already allowed, left as it was`);
    await waitForSession(sh.hub, "q3", (s) => s.status === "idle", 60_000);
    expect(fs.existsSync(marker("q3"))).toBe(false);
    await expect.poll(() => page.getByTestId("approvals-waiting").count()).toBe(0);
    await expect.poll(() => page.getByTestId("approvals-queue").innerText()).toContain("No permission request is waiting.");
    // The decided requests sort by a column: by answer, then by number (largest first).
    const decided = page.getByTestId("approvals-decided-table");
    const answers = () => decided.locator("tbody tr td:nth-child(4)").allInnerTexts();
    await expect.poll(() => decided.locator("tbody tr").count()).toBe(3);
    await decided.getByRole("button", { name: "Answer", exact: true }).click();
    expect(await answers()).toEqual(["allowed", "allowed", "denied"]);
    await decided.getByRole("button", { name: "#", exact: true }).click();
    expect(await decided.locator("tbody tr td:first-child").allInnerTexts()).toEqual([idOf("q3"), idOf("q2"), idOf("q1")].sort((a, b) => b - a).map(String));
    await screenshot(page, "approvals-decided");

    // The sessions table sorts by a column and sums the numbers below.
    await page.goto(`${sh.hub.url}/sessions`);
    const names = () => page.locator('tbody tr[data-testid^="session-"] td:first-child').allInnerTexts();
    await expect.poll(() => page.getByTestId("session-totals").innerText(), { timeout: 30_000 }).toMatch(/^3 sessions\s+\$0\.\d+\s+\d+\s+3\b/);
    await page.getByRole("button", { name: "Session", exact: true }).click();
    expect(await names()).toEqual(["q1", "q2", "q3"]);
    await page.getByRole("button", { name: /^Session/ }).click();
    expect(await names()).toEqual(["q3", "q2", "q1"]);
    expect(await page.locator("th", { has: page.getByRole("button", { name: /^Session/ }) }).getAttribute("aria-sort")).toBe("descending");
    await screenshot(page, "sessions-sorted");
    await page.goto(`${sh.hub.url}/approvals`);

    const refused = cli(sh.hub.dataDir, ["decide", "maybe", "1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("<decision>: must be one of allow, deny");

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("approvals-decided").innerText(), { timeout: 30_000 }).toContain("q3");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, "approvals-390-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
  }, 180_000);

  it("counts every waiting request in the nav and the queue's title, past the 200 it lists", async () => {
    // 201 waiting requests, written straight into the hub's database as copies of a decided one (real sessions would
    // each need a turn waiting on a tool): the queue lists the newest 200, the counts say 201.
    const db = new BetterSqlite3(sh.hub.dbFile);
    db.pragma("busy_timeout = 5000");
    const [{ id, expiresAt }] = db.prepare(`SELECT "id", "expiresAt" FROM "Approval" ORDER BY "id" LIMIT 1`).all() as { id: number; expiresAt: unknown }[];
    // A deadline a day later, in whatever form the column holds, so no request is denied for lateness meanwhile.
    const later = typeof expiresAt === "number" ? expiresAt + 86_400_000 : new Date(new Date(String(expiresAt)).getTime() + 86_400_000).toISOString();
    const copy = db.prepare(
      `INSERT INTO "Approval" ("sessionPk","teamId","requestId","toolName","input","reason","status","createdAt","expiresAt")
       SELECT "sessionPk","teamId",?,"toolName","input","reason",'pending',"createdAt",? FROM "Approval" WHERE "id" = ?`,
    );
    db.transaction(() => {
      for (let i = 0; i < 201; i++) copy.run(`fixture-${i}`, later, id);
    })();
    try {
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(`${sh.hub.url}/approvals`);
      await expect.poll(() => page.getByTestId("approvals-waiting").innerText(), { timeout: 30_000 }).toBe("201");
      await expect.poll(() => page.getByTestId("approvals-queue").locator("tbody tr").count()).toBe(200);
      expect(await page.getByTestId("approvals-queue").getAttribute("aria-label")).toBe("Waiting for a decision (201)");
      expect(await page.getByTestId("approvals-page-note").innerText()).toBe("Showing the newest 200 of 201; the others appear here as these are answered.");
      await screenshot(page, "approvals-over-a-page", { fullPage: false });
      await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect.poll(() => page.getByTestId("approvals-page-note").count(), { timeout: 30_000 }).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await screenshot(page, "approvals-over-a-page-390-dark", { fullPage: false });
    } finally {
      await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
      db.prepare(`DELETE FROM "Approval" WHERE "requestId" LIKE 'fixture-%'`).run();
      db.close();
    }
  }, 120_000);
});
