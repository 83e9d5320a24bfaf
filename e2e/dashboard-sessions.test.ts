/**
 * The overview and session pages in a real browser, against a hub whose sessions run the real
 * `claude` on the fake Messages API: start a session from the form, approve and deny Bash calls
 * from the session page (the turn continues; the denial shows in the transcript), follow the model's text as it
 * streams (also when the page opens mid-message), and see a waiting approval and the real costs on the overview.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { usd } from "../lib/format.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { following, textInFlight } from "./helpers/live-text.ts";
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

const text = (testId: string) => page.getByTestId(testId).innerText();

/** The same page in the dark theme, once `ready` shows what the light one showed. */
async function darkScreenshot(name: string, ready: () => Promise<unknown>) {
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await waitLive(page);
  await ready();
  await screenshot(page, name);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
}

describe("sessions list and spawn form", () => {
  it("shows the hub's refusal under the field, then starts a session that appears in the list live", async () => {
    await page.goto(`${sh.hub.url}/sessions`);
    await waitLive(page);
    await expect.poll(() => text("sessions")).toContain("No sessions in this team yet");

    const form = page.getByRole("form", { name: "start a session" });
    await form.getByLabel("Name").fill("bad name");
    await form.getByRole("button", { name: "Start session" }).click();
    await expect.poll(() => form.locator('[data-field="name"] .error').innerText()).toContain("must be letters, digits");
    await expect.poll(() => form.getByLabel("Name").getAttribute("aria-invalid")).toBe("true");

    const navigations: string[] = [];
    page.on("framenavigated", (f) => navigations.push(f.url()));
    await form.getByLabel("Name").fill("form-made");
    await form.getByLabel("First message (optional)").fill("hello from the form");
    await form.getByLabel("Preset").selectOption("read-only");
    await form.getByLabel("Max turns").fill("7");
    await form.getByRole("button", { name: "Start session" }).click();

    await expect.poll(() => text("session-form-made"), { timeout: 30_000 }).toMatch(/form-made\s+session\s+idle/);
    await expect.poll(() => text("session-form-made")).toMatch(/\$0\.0\d{3}\s+1\s+1/);
    const made = (await api(sh.hub, "GET", "/api/sessions/form-made")).body;
    expect(made).toMatchObject({ preset: "read-only", safety: expect.objectContaining({ maxTurns: 7 }), interactions: 1 });
    expect(navigations).toEqual([]);
    // One hub: no Hub column (docs/dashboard.md#tables-and-forms); the session page still names its hub.
    expect(made.hub).toEqual(expect.any(String));
    expect(await page.getByTestId("hub-of-form-made").count()).toBe(0);
    expect(await page.getByTestId("sessions").getByRole("button", { name: "Hub", exact: true }).count()).toBe(0);
    // Every other column fits, Updated included.
    expect(await page.getByTestId("session-form-made").locator("td").last().isVisible()).toBe(true);
    await screenshot(page, "sessions");
    await darkScreenshot("sessions-dark", () => expect.poll(() => text("session-form-made")).toContain("form-made"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => text("session-form-made"), { timeout: 15_000 }).toContain("form-made");
    await screenshot(page, "sessions-phone");
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 90_000);
});

describe("session page", () => {
  it("approves a pending Bash request and the session continues; a denial shows in the transcript", async () => {
    const target = path.join(sh.work, "approved.txt");
    await api(sh.hub, "POST", "/api/sessions", { name: "approver", preset: "edit", prompt: `@bash touch ${target}\n@reply done` });
    await page.goto(`${sh.hub.url}/sessions/approver`);

    const allow = page.getByTestId("approvals").getByRole("button", { name: "Allow", exact: true });
    await allow.waitFor({ timeout: 30_000 });
    await expect.poll(() => text("approvals")).toContain(`touch ${target}`);
    await expect.poll(() => text("session-status")).toContain("waiting for permission");
    // The call's row carries its permission's answer as a badge (no separate permission line).
    await expect.poll(() => page.locator('[data-testid="tx-tool"] [data-testid="tx-permission"]').first().getAttribute("data-decision")).toBe("pending");
    await screenshot(page, "session-approval");

    await allow.click();
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText(), { timeout: 30_000 }).toBe("done");
    await expect.poll(() => text("session-status")).toContain("idle");
    expect(fs.existsSync(target)).toBe(true);
    await expect.poll(() => page.locator('[data-testid="tx-tool"] [data-testid="tx-permission"]').first().innerText()).toBe("allowed");
    // Paths in the session's work dir are written relative to it.
    expect(await page.getByTestId("tx-tool").first().locator("summary").innerText()).toContain("$ touch approved.txt");
    await expect.poll(() => text("transcript")).toMatch(/turn finished · \$0\.\d+ · 2 model turns/);
    await expect.poll(() => text("history")).toMatch(/1\s+completed\s+\$0\.\d+\s+2/);

    // The second request goes through the send box, and is denied with a note.
    const victim = path.join(sh.work, "keep-me");
    fs.mkdirSync(victim);
    await page.getByTestId("send-text").fill(`@bash rm -rf ${victim}\n@reply after`);
    await page.getByTestId("send-text").press("Control+Enter");
    const deny = page.getByTestId("approvals").getByRole("button", { name: "Deny", exact: true });
    await deny.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId("send-text").inputValue()).toBe("");
    await page.getByLabel(/^note for request/).fill("not that directory");
    await deny.click();

    const denial = page.locator('[data-testid="tx-tool"][data-decision="denied"] summary');
    await expect.poll(() => denial.innerText(), { timeout: 30_000 }).toContain("Denied by operator: not that directory");
    expect(await denial.innerText()).toContain("$ rm -rf keep-me");
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText(), { timeout: 30_000 }).toBe("after");
    expect(fs.existsSync(victim)).toBe(true);
    await expect.poll(() => text("history")).toMatch(/2\s+completed\s+1 denied/);
    // The history sorts by a column (numbers largest first) and totals its cost and turns below.
    await expect.poll(() => text("history-total")).toMatch(/^2 interactions\s+\$0\.\d+\s+\d+/);
    const turns = () =>
      page
        .locator('[data-testid="history"] tbody tr[data-testid^="interaction-"]:not([data-testid$="-error"]):not([data-testid$="-tools"])')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")));
    await page.getByTestId("history").getByRole("button", { name: "#", exact: true }).click();
    expect(await turns()).toEqual(["interaction-2", "interaction-1"]);
    await expect.poll(() => page.getByRole("button", { name: "Allow" }).count()).toBe(0);
    await screenshot(page, "session-detail");
    await darkScreenshot("session-detail-dark", () => expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText()).toBe("after"));
  }, 120_000);

  it("streams the model's text as it is written, then keeps the stored line", async () => {
    expect((await api(sh.hub, "POST", "/api/sessions", { name: "writer" })).status).toBe(201);
    await waitForSession(sh.hub, "writer", (s) => s.status === "idle");
    await page.goto(`${sh.hub.url}/sessions/writer`);
    await expect.poll(() => page.locator(".tx-status").innerText(), { timeout: 15_000 }).toContain("following live");
    const words = "one two three four five six seven eight";
    expect((await api(sh.hub, "POST", "/api/sessions/writer/send", { message: `@drip 50\n@hold 2\n@reply ${words}` })).status).toBe(200);

    // Part of the text is on screen while the model holds the rest.
    const streaming = page.getByTestId("tx-streaming");
    await expect.poll(() => streaming.innerText(), { timeout: 30_000 }).toMatch(/^one two\s*$/);
    sh.fake.release();
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText(), { timeout: 30_000 }).toBe(words);
    expect(await streaming.count()).toBe(0);
    // The pieces were pushed, not stored: the transcript keeps the whole assistant line only.
    const stored = (await api(sh.hub, "GET", "/api/sessions/writer/transcript")).body.entries.map((e: { type: string }) => e.type);
    expect(stored).toContain("assistant");
    expect(stored).not.toContain("stream_event");
  }, 90_000);

  it("opened mid-message, shows the text from its first word and keeps appending", async () => {
    expect((await api(sh.hub, "POST", "/api/sessions", { name: "narrator" })).status).toBe(201);
    await waitForSession(sh.hub, "narrator", (s) => s.status === "idle");
    // A /ws client tells when the hub has the first words; the model then holds the rest until the test says.
    const watcher = await following(sh.hub, ["narrator"]);
    const words = "Once upon a time a hub kept every word it streamed for whoever came late";
    const message = `@drip 20\n@hold 4\n@hold 8\n@reply ${words}`;
    expect((await api(sh.hub, "POST", "/api/sessions/narrator/send", { message })).status).toBe(200);
    await vi.waitFor(() => expect(textInFlight(watcher, "narrator")).toBe("Once upon a time "), { timeout: 30_000, interval: 20 });

    await page.goto(`${sh.hub.url}/sessions/narrator`);
    const streaming = page.getByTestId("tx-streaming");
    await expect.poll(() => streaming.innerText(), { timeout: 30_000 }).toMatch(/^Once upon a time\s*$/);
    await screenshot(page, "session-streaming");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "session-streaming-390");
    await page.setViewportSize({ width: 1366, height: 768 });
    // Reopened (here in the dark theme): the text so far again, from its first word, not twice.
    await darkScreenshot("session-streaming-dark", () => expect.poll(() => streaming.innerText()).toMatch(/^Once upon a time\s*$/));

    sh.fake.release();
    await expect.poll(() => streaming.innerText(), { timeout: 30_000 }).toMatch(/^Once upon a time a hub kept every\s*$/);
    sh.fake.release();
    await expect.poll(() => page.locator('[data-testid="tx-text"]').last().innerText(), { timeout: 30_000 }).toBe(words);
    expect(await streaming.count()).toBe(0);
    watcher.socket.close();
  }, 90_000);

  it("offers the controls the state allows, and fork asks for a name", async () => {
    await page.goto(`${sh.hub.url}/sessions/approver`);
    await expect.poll(() => text("session-status")).toContain("idle");
    const controls = page.getByRole("toolbar", { name: "session controls" });
    expect(await controls.getByRole("button", { name: "Resume" }).isDisabled()).toBe(true);
    await controls.getByRole("button", { name: "Pause" }).click();
    await expect.poll(() => text("session-status")).toContain("paused");
    expect(await controls.getByRole("button", { name: "Pause" }).isDisabled()).toBe(true);
    await controls.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => text("session-status")).toContain("idle");

    await controls.getByRole("button", { name: "Fork…" }).click();
    const dialog = page.getByRole("dialog", { name: "fork approver" });
    await dialog.getByLabel("New session name").fill("approver");
    await dialog.getByRole("button", { name: "Fork" }).click();
    await expect.poll(() => dialog.locator(".form-error").innerText()).toContain("already exists");
    await dialog.getByLabel("New session name").fill("approver-2");
    await dialog.getByRole("button", { name: "Fork" }).click();
    await expect.poll(async () => (await api(sh.hub, "GET", "/api/sessions/approver-2")).body.parent).toBe("approver");

    await controls.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => text("session-status"), { timeout: 30_000 }).toContain("stopped");
    expect(await controls.getByRole("button", { name: "Kill" }).isDisabled()).toBe(true);
    expect(await controls.getByRole("button", { name: "Resume" }).isDisabled()).toBe(false);
  }, 90_000);
});

describe("overview", () => {
  it("lists a waiting approval with a link to its session, and charts the real costs", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "waiting", prompt: `@bash touch ${path.join(sh.work, "later.txt")}\n@reply ok` });
    await waitForSession(sh.hub, "waiting", (s) => s.status === "waiting_permission");

    await page.goto(sh.hub.url);
    await expect.poll(() => text("attention")).toContain("Approvals waiting");
    await expect.poll(() => text("attention")).toMatch(/waiting wants Bash touch .*later\.txt/);

    const { costs } = (await api(sh.hub, "GET", "/api/overview?team=default")).body;
    expect(costs.perSession.map((s: { name: string }) => s.name).sort()).toEqual(["approver", "form-made", "narrator", "writer"]);
    expect(costs.perDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), costUsd: expect.closeTo(costs.totalUsd, 6) });
    await expect.poll(() => text("cost-total")).toBe(usd(costs.totalUsd));
    const perSession = await page.getByTestId("cost-per-session").getByRole("img").getAttribute("aria-label");
    for (const s of costs.perSession) expect(perSession).toContain(`${s.name} ${usd(s.costUsd)}`);
    const perDay = await page.getByTestId("cost-per-day").getByRole("img").getAttribute("aria-label");
    expect(perDay).toContain(`${costs.perDay.at(-1).day} ${usd(costs.perDay.at(-1).costUsd)}; other days $0.00`);
    await screenshot(page, "overview");
    await darkScreenshot("overview-dark", () => expect.poll(() => text("cost-total")).toBe(usd(costs.totalUsd)));

    await page
      .getByTestId("attention")
      .getByRole("link", { name: /waiting wants Bash/ })
      .click();
    await page.waitForURL(/\/sessions\/waiting$/);
    await expect.poll(() => text("approvals")).toContain("later.txt");
  }, 90_000);
});
