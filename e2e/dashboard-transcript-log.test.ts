/**
 * A session's transcript read like a log (docs/dashboard.md#the-transcript), with the real `claude` on the fake
 * Messages API: paths relative to the work dir, each tool call one line with its permission's answer as a badge, Bash
 * as `$ command` with its output, the CLI's system lines behind one toggle, "model working · N s" while the model
 * thinks, a failed turn's error said once with Retry there. The page's header leaves the transcript above the fold at
 * 1440×900, and no page scrolls sideways at 1440 or 390 px with a long list of tools, a long name and a long error.
 */
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel, lastTurnPrompt } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;
let failures = 0;
const LONG = `a-session-with-a-very-long-name-that-goes-on-and-on-${"x".repeat(60)}`;

beforeAll(async () => {
  // "flaky job" fails once with a long API error the CLI does not retry, then works.
  // "long failure" always fails with a long message.
  const long = { error: 500, message: `the upstream is overloaded ${"and says so at length ".repeat(12)}`, retry: false } as const;
  const model = directiveModel((req) => {
    if (lastTurnPrompt(req).includes("long failure")) return long;
    if (!lastTurnPrompt(req).includes("flaky job")) return undefined;
    return ++failures === 1 ? long : { text: "flaky job done" };
  });
  [sh, browser] = await Promise.all([startSessionHub(model), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${sh.hub.url}/sessions`);
  await waitLive(page);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const tools = () => page.getByTestId("tx-tool");
async function openSession(name: string) {
  await page
    .getByRole("navigation", { name: "pages" })
    .getByRole("link", { name: /^Sessions\b/ })
    .click();
  await page.getByTestId(`session-${name}`).getByRole("link").first().click();
  await expect.poll(() => decodeURIComponent(new URL(page.url()).pathname), { timeout: 15_000 }).toBe(`/sessions/${name}`);
}

describe("a transcript that reads like logs", () => {
  it("shows tool calls as one line each with their answer, Bash as $ command with its output, paths relative, and the model working", async () => {
    const w = sh.work;
    fs.mkdirSync(`${w}/src`, { recursive: true });
    fs.writeFileSync(`${w}/src/a.ts`, "export const a = 1;\n");
    // The reply is held before its first word until the test lets it go: the model is "thinking".
    const prompt = `@write ${w}/notes.md|hello from the log\n@bash cat ${w}/notes.md\n@read ${w}/src/a.ts\n@hold 0\n@reply done`;
    expect((await api(sh.hub, "POST", "/api/sessions", { name: "logger", preset: "edit", prompt })).status).toBe(201);
    try {
      await openSession("logger");
      // While the model "thinks" (the reply is held back), one line says so and counts.
      await expect.poll(() => page.getByTestId("tx-working").innerText(), { timeout: 30_000 }).toMatch(/^\s*model working · \d+ s$/);
      await screenshot(page, "transcript-working", { fullPage: false });
    } finally {
      sh.fake.release();
    }
    await expect.poll(() => page.getByTestId("tx-text").last().innerText(), { timeout: 30_000 }).toBe("done");
    await expect.poll(() => page.getByTestId("tx-working").count()).toBe(0);

    const summaries = await tools().locator("summary").allInnerTexts();
    expect(summaries.map((t) => t.replace(/\s+/g, " ").trim())).toEqual(["Write notes.md allowed", "Bash $ cat notes.md allowed", "Read src/a.ts allowed"]);
    // No separate permission lines: each answer is on its call's row.
    expect(await page.getByTestId("tx-permission-row").count()).toBe(0);
    const bash = tools().filter({ hasText: "$ cat notes.md" });
    await bash.locator("summary").click();
    expect(await bash.locator(".tx-shell").innerText()).toBe("$ cat notes.md");
    expect(await bash.locator(".tx-output").innerText()).toContain("hello from the log");

    // The CLI's system lines are behind one toggle.
    expect(await page.locator(".tx-raw").count()).toBe(0);
    const toggle = page.getByTestId("tx-system-toggle");
    await expect.poll(() => toggle.innerText()).toMatch(/^show \d+ system lines?$/);
    await toggle.click();
    expect(await page.locator(".tx-raw").count()).toBeGreaterThan(0);
    await toggle.click();
    expect(await page.locator(".tx-raw").count()).toBe(0);

    // The header is compact: the transcript starts above the fold.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await page.getByTestId("transcript").boundingBox())!;
    expect(box.y, "the transcript's top").toBeLessThan(900 - 150);
    await screenshot(page, "transcript-log-1440", { fullPage: false });
  }, 120_000);

  it("says a failed turn's error once, with Retry there", async () => {
    await page.getByTestId("send-text").fill("flaky job");
    await page.getByTestId("send-text").press("Control+Enter");
    const footer = page.getByTestId("tx-result").last();
    await expect.poll(() => footer.innerText(), { timeout: 30_000 }).toMatch(/^failed: API Error: 500 the upstream is overloaded/);
    const transcript = page.getByTestId("transcript");
    expect((await transcript.innerText()).split("the upstream is overloaded").length - 1).toBe(1);
    await screenshot(page, "transcript-failed", { fullPage: false });
    await footer.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.getByTestId("tx-text").last().innerText(), { timeout: 30_000 }).toBe("flaky job done");
    await expect
      .poll(() =>
        page
          .getByTestId("tx-result")
          .filter({ has: page.getByRole("button", { name: "Retry" }) })
          .count(),
      )
      .toBe(0);
  }, 120_000);

  it("never scrolls sideways at 1440 or 390 px: a long list of tools, a long name, a long error", async () => {
    // A member (it has the hub's tools) calls many of them: its history's list of tools is long.
    const hubTools = [
      "team_roster",
      "artifact_list",
      "contract_list",
      "pipeline_list",
      "team_snapshot_list",
      "team_check_inbox",
      "server_version",
      "artifact_stale",
    ];
    const calls = hubTools.map((t) => `@mcp ${t} {"team":"default"}`).join("\n");
    expect((await api(sh.hub, "POST", "/api/team-spawn", { name: LONG, role: "a role described at some length" })).status).toBe(201);
    await waitForSession(sh.hub, LONG, (s) => s.status === "idle", 60_000);
    expect((await api(sh.hub, "POST", `/api/sessions/${LONG}/send`, { message: `${calls}\n@reply many tools`, wait: true })).status).toBe(200);
    expect((await api(sh.hub, "POST", `/api/sessions/${LONG}/send`, { message: "long failure", wait: true })).status).toBe(200);
    for (const [width, height, theme] of [
      [1440, 900, "light"],
      [1440, 900, "dark"],
      [390, 844, "dark"],
      [390, 844, "light"],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate((t) => window.localStorage.setItem("teamhub.theme", t), theme);
      await page.goto(`${sh.hub.url}/sessions`);
      await waitLive(page);
      await expect.poll(() => page.getByTestId(`session-${LONG}`).count(), { timeout: 15_000 }).toBe(1);
      expect(await sideways(page), `sessions at ${width}`).toEqual([]);
      await screenshot(page, `sessions-long-${width}-${theme}`, { fullPage: false });
      await page.getByTestId(`session-${LONG}`).getByRole("link").first().click();
      await expect.poll(() => page.getByTestId("history").innerText(), { timeout: 15_000 }).toContain("mcp__teamhub__team_roster");
      expect(await sideways(page), `session page at ${width}`).toEqual([]);
      await screenshot(page, `session-long-${width}-${theme}`, { fullPage: false });
      // On a phone the pages are behind the header's menu.
      if (width < 640) await page.getByRole("button", { name: "pages and team" }).click();
      await page
        .getByRole("navigation", { name: "pages" })
        .getByRole("link", { name: /^Overview\b/ })
        .click();
      await expect.poll(() => page.getByTestId("attention").innerText(), { timeout: 15_000 }).toContain(LONG.slice(0, 20));
      await screenshot(page, `overview-long-${width}-${theme}`);
      expect(await sideways(page), `overview at ${width}`).toEqual([]);
    }
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 240_000);
});
