/**
 * What every page shares, in a real browser against a real hub whose session runs the real
 * claude CLI: page shortcuts, the theme, an alert and a browser notification when a session's
 * process dies, and the live connection surviving a hub restart on the same port.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser({ notifications: true })]);
  context = await browser.newContext({ viewport: { width: 1366, height: 768 }, permissions: ["notifications"] });
  // Records the notifications the page raises, and still raises them.
  await context.addInitScript(() => {
    const Real = window.Notification;
    const shown: string[] = [];
    (window as unknown as { shown: string[] }).shown = shown;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title} | ${options?.body ?? ""}`);
      }
    }
    window.Notification = Recorded as typeof Notification;
  });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const shown = () => page.evaluate(() => (window as unknown as { shown: string[] }).shown);

describe("the dashboard shell", () => {
  it("jumps between pages with Alt+number and switches the theme", async () => {
    await page.goto(`${sh.hub.url}/`);
    // The shortcuts work once the page is hydrated; live means hydrated and connected, which a cold hub takes seconds for.
    await waitLive(page);
    await page.keyboard.press("Alt+2");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/sessions");
    expect(await page.getByRole("link", { name: "Sessions" }).getAttribute("aria-current")).toBe("page");
    await page.keyboard.press("Alt+6");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/canvas");
    await page.keyboard.press("Alt+0");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/settings");
    await page.keyboard.press("Alt+1");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/");

    const theme = page.getByTestId("theme");
    const attr = () => page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    await theme.click();
    expect(await attr()).toBe("light");
    await theme.click();
    expect(await attr()).toBe("dark");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe("rgb(255, 255, 255)");
    await page.reload();
    await expect.poll(attr).toBe("dark");
    await theme.click();
    expect(await attr()).toBeNull();
  });

  it("goes to a session, contract, artifact or page from the Ctrl+K palette, and has a favicon", async () => {
    for (const id of ["user-schema", "user-api"]) {
      expect((await api(sh.hub, "POST", "/api/artifacts", { id, type: "custom", data: {} })).status).toBe(201);
    }
    expect((await api(sh.hub, "POST", "/api/contracts", { id: "build-users", title: "Build the user API", assignee: "dev" })).status).toBe(201);
    await page.goto(`${sh.hub.url}/`);
    await waitLive(page);
    const palette = page.getByRole("dialog", { name: "Go to" });
    const options = () => palette.getByRole("option").allInnerTexts();

    await page.keyboard.press("Control+k");
    await expect.poll(() => palette.isVisible()).toBe(true);
    await page.keyboard.type("usrap");
    await expect.poll(options, { timeout: 15_000 }).toEqual([expect.stringMatching(/^user-api\s+artifact · custom$/)]);
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/artifacts/user-api");
    expect(await palette.isVisible()).toBe(false);

    await page.getByTestId("palette-open").click();
    await page.keyboard.type("user");
    // Equal matches, the most recent first: user-api was published after user-schema; then the contract, and the
    // message that told dev about it (messages are searched by their words).
    await expect
      .poll(options, { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(/^user-api\s+artifact/),
        expect.stringMatching(/^user-schema\s+artifact/),
        expect.stringMatching(/^build-users\s+contract · Build the user API$/),
        expect.stringMatching(/^operator → dev\s+message · operator created contract 'build-users'/),
      ]);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.url(), { timeout: 15_000 }).toContain("/canvas?contract=build-users");

    await page.keyboard.press("Control+k");
    await page.keyboard.type("setngs");
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/settings");
    await page.keyboard.press("Control+k");
    await page.keyboard.type("zzzz");
    await expect.poll(() => palette.getByRole("listbox").innerText()).toBe("Nothing matches.");
    expect(await options()).toEqual([]);
    await screenshot(page, "palette");
    await page.keyboard.press("Escape");
    await expect.poll(() => palette.isVisible()).toBe(false);

    // A contract found by a word of its title, and an action run from the palette: Take snapshot, with its label.
    expect((await api(sh.hub, "POST", "/api/contracts", { id: "signup-flow", title: "Create User accounts", assignee: "dev" })).status).toBe(201);
    await page.keyboard.press("Control+k");
    await page.keyboard.type("Create User");
    // The contract first; messages with words starting "create" and "user" ("operator created contract … for you")
    // are found after it.
    await expect.poll(async () => (await options())[0], { timeout: 15_000 }).toMatch(/^signup-flow\s+contract · Create User accounts$/);
    for (const option of (await options()).slice(1)) expect(option).toMatch(/ message · operator created contract/);
    await page.keyboard.press("Control+a");
    await page.keyboard.type("take snap");
    await expect.poll(async () => (await options())[0], { timeout: 15_000 }).toMatch(/^Take snapshot\s+action/);
    await page.keyboard.press("Enter");
    await expect.poll(() => palette.getByTestId("palette-asking").innerText()).toContain("label of the snapshot");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("before the user work");
    await screenshot(page, "palette-asking");
    await page.keyboard.press("Enter");
    await expect.poll(() => palette.getByTestId("palette-outcome").innerText(), { timeout: 15_000 }).toMatch(/^Took snapshot “before the user work” \(/);
    const snapshots = (await api(sh.hub, "GET", "/api/snapshots")).body.items as { label: string }[];
    expect(snapshots.map((s) => s.label)).toContain("before the user work");
    await palette.getByRole("link", { name: "open" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/snapshots");
    await expect.poll(() => page.locator("main").innerText(), { timeout: 15_000 }).toContain("before the user work");

    const icon = await fetch(`${sh.hub.url}${await page.locator('link[rel="icon"]').first().getAttribute("href")}`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
  });

  it("alerts in the page and with a browser notification when a session's process dies", async () => {
    await page.goto(`${sh.hub.url}/`);
    await waitLive(page);
    const bell = page.getByRole("button", { name: "browser notifications for approvals and failures" });
    await bell.click();
    await expect.poll(() => bell.getAttribute("aria-pressed")).toBe("true");

    expect((await api(sh.hub, "POST", "/api/sessions", { name: "doomed", prompt: "@reply ready" })).status).toBe(201);
    const { pid } = await waitForSession(sh.hub, "doomed", (s) => s.status === "idle" && s.pid);
    process.kill(pid, "SIGKILL");

    const alert = page.getByTestId("alert").filter({ hasText: "doomed failed" });
    await expect.poll(() => alert.innerText(), { timeout: 15_000 }).toContain("crashed (ended by SIGKILL)");
    await expect.poll(shown).toEqual(["doomed failed | crashed (ended by SIGKILL)"]);
    expect(await alert.getByRole("link").getAttribute("href")).toBe("/sessions/doomed");
    await alert.getByRole("link").click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/sessions/doomed");
    expect(await page.getByTestId("alert").count()).toBe(0);
  }, 60_000);

  it("goes offline when the hub stops, reconnects when it is back on the same port, and follows new events without a reload", async () => {
    await page.goto(`${sh.hub.url}/artifacts`);
    const live = page.getByTestId("live");
    await waitLive(page);
    const navigations: string[] = [];
    page.on("framenavigated", (f) => f === page.mainFrame() && navigations.push(f.url()));

    await sh.hub.kill();
    await expect.poll(() => live.innerText(), { timeout: 15_000 }).not.toContain("live");
    await sh.restart({ samePort: true });
    await expect.poll(() => live.innerText(), { timeout: 15_000 }).toContain("live");

    expect((await api(sh.hub, "POST", "/api/artifacts", { id: "after-restart", type: "custom", data: { ok: true } })).status).toBe(201);
    await expect.poll(() => page.locator("main").innerText(), { timeout: 10_000 }).toContain("after-restart");
    expect(navigations).toEqual([]);
  }, 120_000);
});
