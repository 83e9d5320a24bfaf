/**
 * A Codex member on the session page, as a person meets it: from the sessions list to the session, its runtime and
 * model in the header, its shell command waiting on the same approval card as a Claude member's; allowed it runs and
 * its turn goes on, denied (with a note) it does not run, and the transcript shows both. Light, dark and 390 px.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
import { startCodexHub, type CodexHub, CODEX_PRICE } from "./helpers/codex.ts";
import { api } from "./helpers/hub-process.ts";
import { waitForSession } from "./helpers/session-hub.ts";

let sh: CodexHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startCodexHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const text = (testId: string) => page.getByTestId(testId).innerText();

describe("a Codex member's session page", () => {
  it("asks on the approval card: allowed the command runs, denied it does not, and the transcript says which", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-page", runtime: "codex", preset: "edit", prompt: "@shell touch allowed.txt\n@reply touched" });
    await waitForSession(sh.hub, "cx-page", (s) => s.status === "waiting_permission", 60_000);

    await page.goto(`${sh.hub.url}/sessions`);
    await waitLive(page);
    await page.getByTestId("session-cx-page").getByRole("link", { name: "cx-page" }).click();
    await page.waitForURL(/\/sessions\/cx-page$/);
    await expect.poll(() => text("session-runtime")).toBe("codex");
    await expect.poll(() => page.locator("main").innerText()).toContain(CODEX_PRICE.model);
    expect(await page.locator("main").innerText()).toContain("Codex session");
    // What Codex cannot do is said on the button.
    const fork = page.getByRole("button", { name: "Fork…" });
    await expect.poll(() => fork.getAttribute("title")).toMatch(/^codex: /);
    expect(await fork.isDisabled()).toBe(true);

    const allow = page.getByTestId("approvals").getByRole("button", { name: "Allow", exact: true });
    await allow.waitFor({ timeout: 30_000 });
    await expect.poll(() => text("approvals")).toContain("touch allowed.txt");
    await screenshot(page, "codex-session-approval");
    await allow.click();
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText(), { timeout: 30_000 }).toBe("touched");
    expect(fs.existsSync(path.join(sh.work, "allowed.txt"))).toBe(true);
    await expect.poll(() => page.getByTestId("tx-tool").first().locator("summary").innerText()).toContain("$ touch allowed.txt");
    await expect.poll(() => page.locator('[data-testid="tx-tool"] [data-testid="tx-permission"]').first().innerText()).toBe("allowed");

    await page.getByTestId("send-text").fill("@shell touch denied.txt\n@reply after");
    await page.getByTestId("send-text").press("Control+Enter");
    const deny = page.getByTestId("approvals").getByRole("button", { name: "Deny", exact: true });
    await deny.waitFor({ timeout: 30_000 });
    await page.getByLabel(/^note for request/).fill("not that file");
    await deny.click();
    await expect.poll(() => text("transcript"), { timeout: 30_000 }).toContain("Denied by operator: not that file");
    await waitForSession(sh.hub, "cx-page", (s) => s.status === "idle" && s.interactions === 2);
    expect(fs.existsSync(path.join(sh.work, "denied.txt"))).toBe(false);
    await expect.poll(() => text("history")).toMatch(/2\s+completed\s+1 denied/);
    // Its plan, as the agent keeps it, in steps.
    await page.getByTestId("send-text").fill("@plan read the schema|completed; write the API contract|in_progress\n@reply planned");
    await page.getByTestId("send-text").press("Control+Enter");
    await expect.poll(() => page.getByTestId("tx-plan").last().innerText(), { timeout: 30_000 }).toMatch(/✓ read the schema\s+▸ write the API contract/);
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText()).toBe("planned");
    await expect.poll(() => text("session-status")).toContain("idle");
    await expect.poll(() => text("history")).toMatch(/3\s+completed/);
    await screenshot(page, "codex-session");

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await waitLive(page);
    await expect.poll(() => text("transcript")).toContain("Denied by operator: not that file");
    await screenshot(page, "codex-session-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => text("transcript"), { timeout: 15_000 }).toContain("touch allowed.txt");
    expect(await sideways(page)).toEqual([]);
    await screenshot(page, "codex-session-phone");
  }, 120_000);
});
