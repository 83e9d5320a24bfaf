/**
 * A session's trouble in a real browser, with the real `claude` on the fake Messages API: a turn
 * the API failed and a cost-limit stop show their state and reason on the sessions list, the
 * session page and the overview's needs-attention, and raise an alert; alerts go away when what
 * they announced is settled, in every open tab.
 */
import type { Browser, Page } from "playwright-core";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { inputCostUsd } from "./helpers/claude.ts";
import { api } from "./helpers/hub-process.ts";
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

const alert = (p: Page, text: string) => p.getByTestId("alert").filter({ hasText: text });

async function open(p: Page, route: string) {
  await p.goto(`${sh.hub.url}${route}`);
  await waitLive(p);
}

/** The same view dark, then 390 px wide; `ready` waits until it shows what it should. */
async function otherLooks(name: string, ready: () => Promise<unknown>) {
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await ready();
  await screenshot(page, `${name}-dark`);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await screenshot(page, `${name}-narrow`);
  await page.setViewportSize({ width: 1366, height: 768 });
}

describe("a turn the API failed", () => {
  it("alerts, shows on the overview and the session page as a failed turn with the API's message, not as healthy", async () => {
    await open(page, "/");
    await api(sh.hub, "POST", "/api/sessions", { name: "unlucky", prompt: "@error 500" });

    await expect
      .poll(() => alert(page, "unlucky").innerText(), { timeout: 30_000 })
      .toMatch(/unlucky has a failed turn\s+last turn failed: API Error: 500 scripted failure/);
    const row = page.getByTestId("attention-session-unlucky");
    await expect.poll(() => row.innerText()).toMatch(/unlucky · idle[\s\S]*last turn failed: API Error: 500 scripted failure/);
    await screenshot(page, "overview-session-trouble");

    await row.getByRole("link", { name: "unlucky" }).click();
    await page.waitForURL(/\/sessions\/unlucky$/);
    const badge = page.getByTestId("session-status").locator(".badge");
    await expect.poll(() => badge.innerText()).toBe("idle");
    expect(await badge.getAttribute("class")).toContain("troubled");
    await expect.poll(() => page.getByTestId("session-problem").innerText()).toMatch(/last turn failed: API Error: 500 scripted failure/);
    const footer = page.getByTestId("tx-result").last();
    await expect.poll(() => footer.innerText()).toMatch(/^failed: API Error: 500 scripted failure/);
    expect(await footer.innerText()).not.toContain("success");
    expect(await footer.getAttribute("class")).toContain("error");
    await expect.poll(() => page.getByTestId("interaction-1").innerText()).toMatch(/^1\s+error/);
    await expect.poll(() => page.getByTestId("interaction-1-error").innerText()).toMatch(/API Error: 500 scripted failure/);
    await screenshot(page, "session-api-error");
    await otherLooks("session-api-error", () => expect.poll(() => page.getByTestId("tx-result").last().innerText()).toMatch(/^failed: API Error: 500/));
  }, 120_000);
});

describe("a cost-limit stop", () => {
  it("says which limit and by how much in the list, on the page and the overview, alerts, and the alert goes in every tab on resume", async () => {
    const other = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await open(page, "/sessions");
      await open(other, "/");
      // 80k input tokens at the default model's list price ($0.40 at $5/M, $0.32 at $4/M), against a $0.05 limit.
      await api(sh.hub, "POST", "/api/sessions", { name: "spender", safety: { maxCostUsd: 0.05 }, prompt: "@usage 80000 0\n@reply spent" });
      const reason = `cost limit: $${inputCostUsd(80_000).toFixed(2)} spent of $0.05`;

      await expect.poll(() => page.getByTestId("session-spender").innerText(), { timeout: 30_000 }).toMatch(/spender\s+session\s+stopped/);
      await expect.poll(() => page.getByTestId("problem-spender").innerText()).toContain(reason);
      for (const tab of [page, other]) await expect.poll(() => alert(tab, "spender").innerText()).toContain(`spender hit a limit ${reason}`);
      await screenshot(page, "sessions-limit-stop");
      await expect
        .poll(() => other.getByTestId("attention-session-spender").innerText())
        .toMatch(new RegExp(`spender · stopped[\\s\\S]*${reason.replaceAll("$", "\\$")}`));

      await open(page, "/sessions/spender");
      await expect.poll(() => page.getByTestId("session-problem").innerText()).toContain(reason);
      await expect.poll(() => page.getByTestId("tx-result").last().innerText()).toContain(`stopped: ${reason}`);
      await screenshot(page, "session-limit-stop");
      await otherLooks("session-limit-stop", () => expect.poll(() => page.getByTestId("tx-result").last().innerText()).toContain(`stopped: ${reason}`));

      // Resumed here, it needs nobody: the reason, the needs-attention row and the other tab's alert go.
      await page.getByRole("toolbar", { name: "session controls" }).getByRole("button", { name: "Resume" }).click();
      await expect.poll(() => page.getByTestId("session-problem").count()).toBe(0);
      await expect.poll(() => alert(other, "spender").count()).toBe(0);
      await expect.poll(() => other.getByTestId("attention").innerText()).not.toContain("spender");
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe("approval alerts", () => {
  it("show the request's real deadline and go away in every tab once the request is decided", async () => {
    const tabs = [page, await browser.newPage({ viewport: { width: 1366, height: 768 } })];
    try {
      for (const tab of tabs) await open(tab, "/");
      // The turn limit (a minute) is shorter than the approval's hour; the card shows the hour.
      await api(sh.hub, "POST", "/api/sessions", {
        name: "asker",
        safety: { timeoutMs: 60_000 },
        approvalTimeoutMs: 3_600_000,
        prompt: `@bash touch ${path.join(sh.work, "asked.txt")}\n@reply asked`,
      });
      for (const tab of tabs) await expect.poll(() => alert(tab, "asker").innerText(), { timeout: 30_000 }).toContain("asker needs approval");

      // Through the overview's row (following the alert would dismiss it in this tab by hand).
      await page
        .getByTestId("attention")
        .getByRole("link", { name: /asker wants Bash/ })
        .click();
      await page.waitForURL(/\/sessions\/asker$/);
      await expect.poll(() => page.getByTestId("approval-deadline").innerText()).toMatch(/denied automatically in (59:\d\d|1:00:00)/);
      await screenshot(page, "session-approval-deadline");
      await page.getByTestId("approvals").getByRole("button", { name: "Allow", exact: true }).click();
      for (const tab of tabs) await expect.poll(() => alert(tab, "asker").count()).toBe(0);
      expect((await waitForSession(sh.hub, "asker", (s) => s.status === "idle" && s.interactions === 1)).problem).toBeNull();
    } finally {
      await tabs[1].close();
    }
  }, 120_000);
});
