/**
 * Choosing a session's runtime (docs/runtimes.md#choosing-a-runtime) as a person does, in a real browser and through the
 * CLI: the spawn form lists the hub's runtimes and offers Codex's own models with their prices, and the hub's refusal of a
 * combination Codex cannot run shows under its field with nothing started; a Claude session started from the form shows its
 * runtime in the list, on its page and in the overview's costs. A Codex member's page is e2e/dashboard-codex.test.ts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api, cliAsync } from "./helpers/hub-process.ts";
import { startSessionHub, type SessionHub } from "./helpers/session-hub.ts";

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
const sessionNames = async () => ((await api(sh.hub, "GET", "/api/sessions")).body as Array<{ name: string }>).map((s) => s.name);

describe("the spawn form's runtime", () => {
  it("offers Codex's models, shows the hub's refusal of an agent for it, and starts a Claude session that shows its runtime", async () => {
    await page.goto(sh.hub.url);
    await waitLive(page);
    await page
      .getByRole("navigation", { name: "pages" })
      .getByRole("link", { name: /^Sessions\b/ })
      .click();
    const form = page.getByRole("form", { name: "start a session" });
    const runtime = form.getByLabel("Runtime");
    await expect.poll(() => runtime.locator("option").allInnerTexts()).toEqual(["claude", "codex"]);
    // Claude Code resolves any alias or id itself: a free text field.
    expect(await form.getByLabel("Model").evaluate((e) => e.tagName)).toBe("INPUT");
    await form.getByLabel("Model").fill("sonnet");

    await runtime.selectOption("codex");
    const model = form.getByLabel("Model");
    await expect.poll(() => model.evaluate((e) => e.tagName)).toBe("SELECT");
    // The model typed for Claude is gone: Codex does not know it.
    expect(await model.inputValue()).toBe("");
    expect(await model.locator("option").allInnerTexts()).toEqual(["default (gpt-5.5)", "gpt-5.5", "gpt-5.4", "gpt-5.4-mini"]);
    expect(await form.locator('[data-field="model"] .hint').innerText()).toBe("gpt-5.5: $5 / $30 per M tokens in / out");
    await model.selectOption("gpt-5.4-mini");
    expect(await form.locator('[data-field="model"] .hint').innerText()).toBe("gpt-5.4-mini: $0.75 / $4.50 per M tokens in / out");
    expect(await form.locator('[data-field="agent"] .hint').innerText()).toContain("Codex has no named agents");

    await form.getByLabel("Name", { exact: true }).fill("codex-reviewer");
    await form.getByLabel("Agent (optional)").fill("reviewer");
    await form.getByRole("button", { name: "Start session" }).click();
    await expect
      .poll(() => form.locator('[data-field="agent"] .error').innerText())
      .toBe("runtime 'codex' cannot run an agent: Codex has no named agents (--agent is Claude Code's)");
    expect(await form.getByLabel("Agent (optional)").getAttribute("aria-invalid")).toBe("true");
    expect(await sessionNames()).toEqual([]);
    await screenshot(page, "spawn-codex-refused");

    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await waitLive(page);
    await form.getByLabel("Runtime").selectOption("codex");
    await expect.poll(() => form.getByLabel("Model").evaluate((e) => e.tagName)).toBe("SELECT");
    await screenshot(page, "spawn-codex-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await waitLive(page);
    await form.getByLabel("Runtime").selectOption("codex");
    await expect.poll(() => form.getByLabel("Model").evaluate((e) => e.tagName)).toBe("SELECT");
    await screenshot(page, "spawn-codex-phone");
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.reload();
    await waitLive(page);

    await form.getByLabel("Name", { exact: true }).fill("claude-one");
    await form.getByLabel("First message (optional)").fill("hello");
    await form.getByRole("button", { name: "Start session" }).click();
    await expect.poll(() => text("session-claude-one"), { timeout: 30_000 }).toMatch(/claude-one\s+session\s+idle/);
    expect(await text("runtime-of-claude-one")).toBe("claude");
    // The submit scrolled the page; the list is at its top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "sessions-runtime");

    await page.getByTestId("session-claude-one").getByRole("link", { name: "claude-one" }).click();
    await expect.poll(() => text("session-runtime")).toContain("claude");
    await screenshot(page, "session-runtime", { fullPage: false });

    await page
      .getByRole("navigation", { name: "pages" })
      .getByRole("link", { name: /^Overview\b/ })
      .click();
    await expect.poll(() => text("cost-per-runtime"), { timeout: 15_000 }).toMatch(/claude\s+1\s+\$0\.\d+/);
    await screenshot(page, "overview-cost-per-runtime");
  }, 120_000);
});

describe("the CLI's runtime", () => {
  it("lists the runtimes and passes --runtime, whose refusal names the field", async () => {
    const list = await cliAsync(sh.hub.dataDir, ["runtimes"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^NAME\s+PROTOCOL\s+DEFAULT\s+MODELS\s+CANNOT\nclaude\s+claude-stream-json\s+—\s+any\s+—\ncodex\s+acp\s+gpt-5\.5\s+gpt-5\.5 \(\$5\/\$30 per M in\/out\)/,
    );
    const refused = await cliAsync(sh.hub.dataDir, ["spawn", "cx", "--runtime", "codex", "--model", "opus"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("model: runtime 'codex' offers no model 'opus'; it offers gpt-5.5, gpt-5.4, gpt-5.4-mini");
    const unknown = await cliAsync(sh.hub.dataDir, ["delegate", "dx", "--task", "t", "--runtime", "gemini"]);
    expect(unknown.stderr).toContain("runtime: 'gemini' is not a runtime of this hub (claude, codex)");
    expect(await sessionNames()).not.toContain("cx");
  });
});
