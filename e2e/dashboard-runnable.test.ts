/**
 * The session page's Work tree panel and the settings page's work tree commands, in a real browser against a real hub
 * whose member runs the real `claude` (against the fake API) in its own work tree of a real git repository with a
 * teamhub.json: opened by client-side navigation, the panel shows the session's ports (PORT first), the config's source,
 * the copied files, and a setup that failed with its error; once the config is fixed on the base branch, "Run setup
 * again" runs it with its output streaming in, and it succeeds; Start serves the run command on PORT, linked, with its
 * output, and Stop stops it. Settings: the team's worktree option refused naming the field, saved, and cleared.
 * Screenshots in light, dark and at 390 px wide.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { portRangeFrom } from "./helpers/claude.ts";
import { launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const BROKEN = { worktree: { setup: "echo installing; echo 'cannot install: no luck' >&2; exit 3", run: "node server.mjs", ports: 2 } };
// Fixed: prints, then waits for a file the test writes into the work tree, so the page is seen streaming while it runs.
const FIXED_SETUP = "echo installing; while [ ! -f go ]; do sleep 0.05; done; echo installed";

let sh: SessionHub;
let browser: Browser;
let page: Page;
let repo: WorkTree;
const errors: string[] = [];

beforeAll(async () => {
  // A port range of its own: hubs of other test files lease theirs from the default range at the same time.
  [sh, browser] = await Promise.all([startSessionHub(directiveModel(), { TEAMHUB_PORT_RANGE: portRangeFrom(27200) }), launchBrowser()]);
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write(
    "server.mjs",
    'import http from "node:http";\nconst port = Number(process.env.PORT);\n' +
      'http.createServer((q, r) => r.end(`hello on ${port}`)).listen(port, "127.0.0.1", () => console.log(`listening on ${port}`));\n',
  );
  repo.write(".gitignore", ".env\ngo\n");
  repo.write(".worktreeinclude", ".env\n");
  repo.write("teamhub.json", JSON.stringify(BROKEN));
  repo.commit("a runnable project whose setup fails");
  repo.write(".env", "VALUE=1\n");
  expect((await api(sh.hub, "PATCH", "/api/teams/default/settings", { gateEnforcement: "off" })).status).toBe(200);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  page.on("pageerror", (e) => errors.push(e.message));
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const panel = () => page.getByTestId("worktree-panel");

/** The dark theme on the page as it is (a reload would lose where it is). */
async function themed(theme: "dark" | null, fn: () => Promise<unknown>) {
  await page.evaluate((t) => (t ? document.documentElement.setAttribute("data-theme", t) : document.documentElement.removeAttribute("data-theme")), theme);
  try {
    await fn();
  } finally {
    await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));
  }
}

/** One card of the page, clipped from the whole page scrolled to the top: the shell's sticky header never covers it. */
async function cardShot(testId: string, file: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await page.getByTestId(testId).boundingBox())!;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${file}.png`), fullPage: true, clip: box });
}

/** The card in light and dark, and at 390 px wide, where the page must not get wider than the screen. */
async function shots(name: string, testId: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await cardShot(testId, name);
  await themed("dark", () => cardShot(testId, `${name}-dark`));
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await cardShot(testId, `${name}-390`);
  } finally {
    await page.setViewportSize({ width: 1366, height: 768 });
  }
}

describe("the session page's Work tree panel", () => {
  it(
    "shows ports and a failed setup, runs setup again once it is fixed on the base branch, and starts and stops the run command",
    { timeout: 240_000 },
    async () => {
      const spawned = await api(sh.hub, "POST", "/api/team-spawn", { team: "default", name: "alice", role: "dev", workDir: sh.work });
      expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
      const tree = spawned.body.worktree.path as string;
      await waitForSession(sh.hub, "alice", (s) => s.status === "failed", 60_000);
      const { ports } = (await api(sh.hub, "GET", "/api/sessions/alice/runnable")).body as { ports: number[] };
      expect(ports).toHaveLength(2);

      // From the sessions list to the session, by a click: the page is not reloaded.
      await page.goto(`${sh.hub.url}/sessions`);
      await page.evaluate(() => Object.assign(window, { notReloaded: true }));
      await page.getByRole("link", { name: "alice", exact: true }).click();
      await page.waitForURL(/\/sessions\/alice$/);
      await expect.poll(() => panel().isVisible(), { timeout: 30_000 }).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

      await expect.poll(() => page.getByTestId("runnable-ports").innerText(), { timeout: 30_000 }).toBe(`${ports[0]} PORT, ${ports[1]}`);
      expect(await page.getByTestId("runnable-source").innerText()).toBe("teamhub.json");
      expect(await page.getByTestId("runnable-included").innerText()).toBe("1 file");
      expect(await page.getByTestId("runnable-included").locator("summary").getAttribute("title")).toBe(".env");
      expect(await page.getByTestId("setup-status").innerText()).toBe("failed");
      expect(await page.getByTestId("setup-error").innerText()).toBe("setup failed (exit 3): cannot install: no luck");
      expect(await page.getByTestId("session-problem").innerText()).toContain("setup failed (exit 3): cannot install: no luck");
      // Run waits for the session and its setup.
      expect(await page.getByTestId("runnable-run").getByRole("button", { name: "Start" }).isDisabled()).toBe(true);
      await page.getByText("Setup output").click();
      await expect.poll(() => page.getByTestId("setup-output").innerText(), { timeout: 10_000 }).toBe("installing\ncannot install: no luck\n");
      await shots("runnable-setup-failed", "worktree-panel");

      // Fixed on the base branch; the person runs it again from the page.
      repo.write("teamhub.json", JSON.stringify({ worktree: { ...BROKEN.worktree, setup: FIXED_SETUP } }));
      repo.commit("fix the setup");
      await page.getByRole("button", { name: "Run setup again" }).click();
      // Its output streams in while it runs (it waits for the go file).
      await expect.poll(() => page.getByTestId("setup-status").innerText(), { timeout: 60_000 }).toBe("running…");
      await expect.poll(() => page.getByTestId("setup-output").innerText(), { timeout: 30_000 }).toBe("installing\n");
      await shots("runnable-setup-running", "worktree-panel");
      fs.writeFileSync(path.join(tree, "go"), "");
      await expect.poll(() => page.getByTestId("setup-status").innerText(), { timeout: 60_000 }).toBe("succeeded");
      await expect.poll(() => page.getByTestId("setup-output").innerText(), { timeout: 10_000 }).toBe("installing\ninstalled\n");
      expect(await page.getByTestId("setup-error").count()).toBe(0);
      await waitForSession(sh.hub, "alice", (s) => s.status === "idle", 60_000);

      // The dev server: Start, its address while it runs, its output, Stop.
      const start = page.getByTestId("runnable-run").getByRole("button", { name: "Start" });
      await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
      await start.click();
      const link = page.getByTestId("run-url");
      await expect.poll(() => link.isVisible(), { timeout: 30_000 }).toBe(true);
      expect(await link.getAttribute("href")).toBe(`http://localhost:${ports[0]}`);
      await page.getByText("Run output").click();
      // Listening is what the server prints once it serves (its start is reported when its process starts).
      await expect.poll(() => page.getByTestId("run-output").innerText(), { timeout: 20_000 }).toBe(`listening on ${ports[0]}\n`);
      expect(await (await fetch(`http://127.0.0.1:${ports[0]}/`)).text()).toBe(`hello on ${ports[0]}`);
      await shots("runnable-running", "worktree-panel");
      await page.getByTestId("runnable-run").getByRole("button", { name: "Stop" }).click();
      await expect.poll(() => page.getByTestId("run-status").innerText(), { timeout: 30_000 }).toBe("stopped");
      expect(await link.count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(errors).toEqual([]);
    },
  );
});

describe("the settings page's work tree commands", () => {
  it("refuses a bad value naming the field, saves the team's worktree option, and clears it", { timeout: 120_000 }, async () => {
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    const form = page.getByRole("form", { name: "work tree commands of team default" });
    await expect.poll(() => form.isVisible(), { timeout: 30_000 }).toBe(true);
    await form.getByTestId("worktree-setup").fill("npm ci");
    await form.getByTestId("worktree-ports").fill("17");
    await form.getByTestId("worktree-setupTimeoutMs").fill("500");
    await form.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => form.locator(".field .error").allInnerTexts(), { timeout: 10_000 })
      .toEqual(["Ports: must be at most 16", "Setup time limit (ms): must be at least 1000 (one second)"]);
    expect((await api(sh.hub, "GET", "/api/teams/default/settings")).body.worktree).toBeNull();
    await shots("runnable-settings-refused", "worktree-options");

    await form.getByTestId("worktree-ports").fill("2");
    await form.getByTestId("worktree-setupTimeoutMs").fill("");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => form.getByRole("status").isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await api(sh.hub, "GET", "/api/teams/default/settings")).body.worktree).toEqual({ setup: "npm ci", ports: 2 });
    await shots("runnable-settings-saved", "worktree-options");

    await form.getByRole("button", { name: "Clear" }).click();
    await expect.poll(async () => (await api(sh.hub, "GET", "/api/teams/default/settings")).body.worktree, { timeout: 10_000 }).toBeNull();
    await expect.poll(() => form.getByTestId("worktree-setup").inputValue()).toBe("");
    expect(errors).toEqual([]);
  });
});
