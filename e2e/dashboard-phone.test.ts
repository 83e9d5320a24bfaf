/**
 * Every page of the dashboard on a phone (390×844, docs/dashboard-phone.md), in a real browser against a real hub
 * with a realistic team: two members in work trees of their own running the real `claude` (fake Messages API) who
 * wrote code, one waiting for a Bash approval, contracts with dependencies, artifacts with versions and lineage, a
 * pipeline that ran, a snapshot with changes since, messages, budgets and member tokens. Each page, light and dark,
 * must not scroll sideways, and the header must stay one compact row whose menu reaches every page. The canvas is
 * driven by touch: a finger pans it, two fingers zoom it, a tap on a node opens its panel in view.
 */
import path from "node:path";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { SCREENSHOTS, launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { viewportSettled } from "./helpers/canvas-probe.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree } from "./helpers/work-tree.ts";

const PHONE = { width: 390, height: 844 };
/** One row of header, on a phone (brand, live state, palette, notifications, theme, menu) as on a laptop. */
const HEADER_MAX = 64;
const RUN_A = "teamhub/default/api-dev";
const RUN_B = "teamhub/default/web-dev";

let sh: SessionHub;
let browser: Browser;
const tokens: Record<string, string> = {};
const dirs: Record<string, string> = {};

async function ok(method: string, route: string, body?: unknown, member?: string) {
  const r = await api(sh.hub, method, route, body, member ? { authorization: `Bearer ${tokens[member]}` } : {});
  expect(r.status, `${method} ${route}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}
const idle = (s: { status: string; queued: number; running: unknown }) => s.status === "idle" && s.queued === 0 && s.running === null;

/** Two members who wrote code in their work trees, one session waiting for an approval, and the team's coordination around them. */
async function seedTeam() {
  const repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("README.md", "# shop\n");
  repo.commit("start");
  for (const [name, role] of [
    ["api-dev", "backend"],
    ["web-dev", "frontend"],
  ]) {
    dirs[name] = (await ok("POST", "/api/team-spawn", { name, role, workDir: sh.work })).workDir;
    await waitForSession(sh.hub, name, idle, 60_000);
  }
  const write = (name: string, file: string, content: string) =>
    ok("POST", `/api/sessions/${name}/send`, { message: `@write ${path.join(dirs[name], file)}|${content}\n@reply wrote ${file}`, wait: true });
  await write(
    "api-dev",
    "src/server/routes/authentication-handlers.ts",
    'export const loginHandlerWithRateLimitingAndAuditLogging = "POST /api/v1/auth/login";',
  );
  await write("web-dev", "src/server/routes/authentication-handlers.ts", 'export const endpoint = "/api/v1/auth/login?redirect=/dashboard/settings/tokens";');

  for (const name of ["qa-dev", "docs-dev"]) tokens[name] = (await ok("POST", "/api/tokens", { name })).token;
  await ok("POST", "/api/roster", {
    name: "qa-dev",
    role: "integration tests",
    status: "busy",
    currentTask: "end-to-end tests of the login flow with rate limiting",
  });

  await ok("POST", "/api/artifacts", {
    id: "schema-user-model",
    type: "schema-change",
    tags: ["auth", "database"],
    summary: "first cut",
    data: { models: [{ name: "User", fields: ["email", "password"] }] },
  });
  await ok("POST", "/api/artifacts", {
    id: "api-contract-user-authentication-endpoints",
    type: "api-contract",
    derivedFrom: ["schema-user-model@v1"],
    data: {
      endpoints: [
        { method: "POST", path: "/api/v1/auth/login" },
        { method: "POST", path: "/api/v1/auth/logout" },
      ],
    },
  });
  await ok("POST", "/api/contracts", { id: "design-user-schema", title: "Design the user schema", assignee: "qa-dev" });
  await ok("POST", "/api/contracts", {
    id: "write-authentication-integration-tests",
    title: "Write integration tests for every authentication endpoint, including rate limiting",
    assignee: "qa-dev",
    dependencies: [
      { type: "artifact", artifactId: "api-contract-user-authentication-endpoints" },
      { type: "contract", contractId: "design-user-schema" },
    ],
  });
  await ok("POST", "/api/contracts", {
    id: "document-auth",
    title: "Document the auth API",
    assignee: "docs-dev",
    dependencies: [{ type: "contract", contractId: "write-authentication-integration-tests" }],
  });
  await ok("GET", "/api/artifacts/schema-user-model?version=1", undefined, "qa-dev");
  await ok("POST", "/api/pipelines", {
    id: "ci-failures-to-everyone",
    rules: [
      {
        trigger: { type: "artifact_published", artifactType: "test-results" },
        condition: "data.failed > 0",
        action: { type: "broadcast", message: "${artifact.id}: ${data.failed} of ${data.total} tests failed" },
      },
    ],
  });
  await ok("POST", "/api/snapshots", { id: "before-password-hashing", label: "Before the password is hashed" });
  await ok("POST", "/api/artifacts", {
    id: "schema-user-model",
    type: "schema-change",
    tags: ["auth", "database"],
    summary: "hash the password",
    data: { models: [{ name: "User", fields: ["email", "passwordHash", "passwordUpdatedAt"] }] },
  });
  await ok("POST", "/api/artifacts", { id: "test-results-authentication", type: "test-results", data: { total: 42, passed: 39, failed: 3 } }, "qa-dev");
  await ok("POST", "/api/chat/send", { to: "operator", message: "blocked: the staging database password in the vault has expired" }, "qa-dev");
  await ok("POST", "/api/chat/broadcast", { message: "the auth API docs draft is up for review: docs/api/authentication.md" }, "docs-dev");
  await ok("PUT", "/api/budgets", { scope: "team", amountUsd: 5 });
  await ok("PUT", "/api/budgets", { scope: "member", target: "api-dev", amountUsd: 1, period: "month" });
  await ok("POST", "/api/sessions", {
    name: "reviewer",
    preset: "edit",
    prompt: "@bash npx eslint --max-warnings 0 src/server/routes/authentication-handlers.ts\n@reply linted",
  });
  await waitForSession(sh.hub, "reviewer", (s) => s.status === "waiting_permission", 60_000);
}

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  await seedTeam();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

/** Each page and what shows once it has loaded its data (a phone page half-loaded would prove nothing). */
const PAGES: Array<{ name: string; route: string; ready: (p: Page) => Promise<unknown> }> = [
  {
    name: "overview",
    route: "/",
    ready: (p) =>
      p
        .getByTestId("attention")
        .innerText()
        .then((t) => expect(t).toContain("reviewer")),
  },
  { name: "sessions", route: "/sessions", ready: (p) => p.getByTestId("session-reviewer").innerText() },
  {
    name: "session",
    route: "/sessions/api-dev",
    ready: (p) =>
      p
        .locator("main")
        .innerText()
        .then((t) => expect(t).toContain("wrote src/server")),
  },
  {
    name: "session-changes",
    route: "/sessions/api-dev?tab=changes",
    ready: (p) =>
      p
        .locator("main")
        .innerText()
        .then((t) => expect(t).toContain("loginHandlerWithRateLimitingAndAuditLogging")),
  },
  {
    name: "inbox",
    route: "/inbox",
    ready: (p) =>
      p
        .getByTestId("operator-inbox")
        .innerText()
        .then((t) => expect(t).toContain("staging database")),
  },
  {
    name: "approvals",
    route: "/approvals",
    ready: (p) =>
      p
        .getByTestId("approvals-queue")
        .innerText()
        .then((t) => expect(t).toContain("eslint")),
  },
  { name: "artifacts", route: "/artifacts", ready: (p) => p.getByTestId("artifact-row-test-results-authentication").innerText() },
  { name: "artifact", route: "/artifacts/schema-user-model", ready: (p) => p.getByTestId("version-diff").innerText() },
  { name: "canvas", route: "/canvas", ready: (p) => expect(p.locator(".react-flow__node").count()).resolves.toBeGreaterThan(4) },
  {
    name: "contract",
    route: "/canvas?contract=write-authentication-integration-tests",
    ready: (p) =>
      p
        .getByTestId("canvas-panel")
        .innerText()
        .then((t) => expect(t).toContain("rate limiting")),
  },
  { name: "pipelines", route: "/pipelines", ready: (p) => p.getByTestId("pipeline-ci-failures-to-everyone").innerText() },
  {
    name: "pipeline",
    route: "/pipelines/ci-failures-to-everyone",
    ready: (p) =>
      p
        .getByTestId("execution-log")
        .innerText()
        .then((t) => expect(t).toContain("test-results-authentication")),
  },
  { name: "snapshots", route: "/snapshots", ready: (p) => p.getByTestId("diff-overview").innerText() },
  { name: "budgets", route: "/budgets", ready: (p) => p.getByTestId("budget-member-api-dev").innerText() },
  { name: "settings", route: "/settings", ready: (p) => p.getByTestId("token-docs-dev").innerText() },
  {
    name: "compare",
    route: `/compare?team=default&a=${encodeURIComponent(RUN_A)}&b=${encodeURIComponent(RUN_B)}`,
    ready: (p) =>
      p
        .locator("main")
        .innerText()
        .then((t) => expect(t).toContain("loginHandlerWithRateLimitingAndAuditLogging")),
  },
];

/**
 * How far the page (and its body) reaches past the screen's right edge, and the first elements that stick out
 * without an ancestor that scrolls or clips them (a wide table scrolling inside its card is fine).
 */
const overflow = (p: Page) =>
  p.evaluate(() => {
    const doc = document.documentElement;
    const clipped = (e: Element) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const wider = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > doc.clientWidth + 0.5 && !clipped(e))
      .slice(0, 6)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ? `.${e.className.split(" ").join(".")}` : ""} →${Math.round(e.getBoundingClientRect().right)}`,
      );
    return { doc: doc.scrollWidth - doc.clientWidth, body: document.body.scrollWidth - document.body.clientWidth, wider };
  });
/** The page fits the screen's width: nothing to scroll sideways to. */
async function expectFits(p: Page, what: string) {
  const o = await overflow(p);
  expect({ doc: o.doc, body: o.body }, `${what} reaches past the screen: ${o.wider.join(", ")}`).toEqual({ doc: 0, body: 0 });
}

async function openPhone(theme: "light" | "dark"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  if (theme === "dark") await context.addInitScript(() => window.localStorage.setItem("teamhub.theme", "dark"));
  return { context, page: await context.newPage() };
}

describe.each(["light", "dark"] as const)("every page at 390×844, %s", (theme) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => ({ context, page } = await openPhone(theme)));
  afterAll(() => context?.close());

  it.each(PAGES)("$name does not scroll sideways, under a one-row header", async ({ name, route, ready }) => {
    await page.goto(`${sh.hub.url}${route}`);
    await waitLive(page);
    await expect.poll(() => ready(page).then(() => true), { timeout: 20_000 }).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? "light")).toBe(theme);
    await screenshot(page, `phone-${name}${theme === "dark" ? "-dark" : ""}`);
    await expectFits(page, name);
    expect((await page.locator("header.top").boundingBox())!.height).toBeLessThanOrEqual(HEADER_MAX);
  });
});

describe("the header on a phone", () => {
  it("opens every page from the menu, keeps the team picker and theme reachable, and closes on navigation", async () => {
    const { context, page } = await openPhone("light");
    try {
      await page.goto(`${sh.hub.url}/`);
      await waitLive(page);
      const nav = page.getByRole("navigation", { name: "pages" });
      expect(await nav.isVisible()).toBe(false);
      const menu = page.getByRole("button", { name: "pages and team" });
      // What waits (the approval, the operator's unread messages) is counted on the closed menu's button.
      await ok("POST", "/api/chat/send", { to: "operator", message: "the login tests pass again" }, "qa-dev");
      const unread = (await ok("GET", "/api/chat/unread")).unread;
      await expect.poll(() => page.getByTestId("menu-count").innerText()).toBe(String(1 + unread));
      await menu.tap();
      await expect.poll(() => nav.isVisible()).toBe(true);
      expect(await menu.getAttribute("aria-expanded")).toBe("true");
      expect(await nav.getByRole("link").count()).toBe(11);
      expect(await page.getByTestId("approvals-waiting").innerText()).toBe("1");
      expect(await page.getByRole("combobox", { name: "team" }).isVisible()).toBe(true);
      await expectFits(page, "the open menu");
      await screenshot(page, "phone-menu");
      // A tap beside the open menu closes it.
      await page.touchscreen.tap(PHONE.width / 2, PHONE.height - 40);
      await expect.poll(() => nav.isVisible()).toBe(false);
      expect(new URL(page.url()).pathname).toBe("/");
      await menu.tap();
      await nav.getByRole("link", { name: /^Pipelines/ }).tap();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/pipelines");
      await expect.poll(() => nav.isVisible()).toBe(false);
      await page.getByTestId("theme").tap();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    } finally {
      await context.close();
    }
  });

  it("keeps the desktop layout: the nav in the header's one row with its counts, the canvas's panel beside the canvas", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await page.goto(`${sh.hub.url}/artifacts`);
      await waitLive(page);
      await expect.poll(() => page.getByTestId("artifact-row-test-results-authentication").count()).toBe(1);
      const nav = page.getByRole("navigation", { name: "pages" });
      await expect.poll(() => page.getByTestId("approvals-waiting").innerText()).toBe("1");
      await expect.poll(() => page.getByTestId("inbox-unread").count()).toBe(1);
      await screenshot(page, "phone-desktop-artifacts");
      expect(await nav.isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "pages and team" }).isVisible()).toBe(false);
      expect((await page.locator("header.top").boundingBox())!.height).toBeLessThanOrEqual(HEADER_MAX);
      expect((await nav.boundingBox())!.y).toBeLessThan(HEADER_MAX);

      await page.goto(`${sh.hub.url}/canvas`);
      const node = page.locator('.react-flow__node[data-id="contract:design-user-schema"]');
      await expect.poll(() => node.isVisible()).toBe(true);
      await viewportSettled(page);
      await node.click();
      const panel = page.getByTestId("canvas-panel");
      await expect.poll(() => panel.innerText()).toContain("Design the user schema");
      await viewportSettled(page);
      await screenshot(page, "phone-desktop-canvas");
      const canvas = (await page.getByTestId("canvas").boundingBox())!;
      expect((await panel.boundingBox())!.x).toBeGreaterThanOrEqual(canvas.x + canvas.width);
      // Centred in the whole canvas, as before: a panel beside it covers none of it.
      const shown = (await node.boundingBox())!;
      expect(Math.abs(shown.y + shown.height / 2 - (canvas.y + canvas.height / 2))).toBeLessThan(2);
    } finally {
      await page.close();
    }
  });
});

describe("the canvas by touch", () => {
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  beforeAll(async () => {
    ({ context, page } = await openPhone("light"));
    cdp = await context.newCDPSession(page);
  });
  afterAll(() => context?.close());

  /** xyflow's viewport transform: translate(x, y) scale(zoom). */
  const viewport = async () => {
    const m = /translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([-\d.]+)\)/.exec((await page.locator(".react-flow__viewport").getAttribute("style")) ?? "");
    return { x: Number(m![1]), y: Number(m![2]), zoom: Number(m![3]) };
  };
  /** A point of the canvas with only the pane within 40 px of it. */
  const emptySpot = (box: { x: number; y: number; width: number; height: number }) =>
    page.evaluate((b) => {
      const pane = (x: number, y: number) => document.elementFromPoint(x, y)?.classList.contains("react-flow__pane") ?? false;
      for (let y = b.y + 50; y < b.y + b.height - 50; y += 10)
        for (let x = b.x + 50; x < b.x + b.width - 50; x += 10)
          if ([-40, 0, 40].every((dx) => [-40, 0, 40].every((dy) => pane(x + dx, y + dy)))) return { x, y };
      throw new Error("no empty spot on the canvas");
    }, box);
  /** Fingers moving together from `from` to `to` in small steps, as a hand would. */
  async function gesture(from: Array<{ x: number; y: number }>, to: Array<{ x: number; y: number }>) {
    const at = (t: number) => from.map((f, i) => ({ x: f.x + (to[i].x - f.x) * t, y: f.y + (to[i].y - f.y) * t, id: i }));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
    for (let s = 1; s <= 10; s++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(s / 10) });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  }

  it("pans with a finger, zooms with two, and a tap on a node opens its panel in view", async () => {
    await page.goto(`${sh.hub.url}/canvas`);
    const canvas = page.getByTestId("canvas");
    await expect.poll(() => page.locator(".react-flow__node").count()).toBeGreaterThan(4);
    const box = (await canvas.boundingBox())!;
    // The canvas has the screen's width, not what filters beside it leave over.
    expect(box.width).toBeGreaterThan(PHONE.width - 40);
    expect(box.height).toBeGreaterThan(PHONE.height / 2);
    await viewportSettled(page);

    // Fingers land on the pane: one on a node's handle would draw a dependency instead.
    const start = await emptySpot(box);
    const before = await viewport();
    await gesture([start], [{ x: start.x + 80, y: start.y - 40 }]);
    await expect.poll(async () => (await viewport()).x - before.x).toBeGreaterThan(40);
    const panned = await viewport();
    expect(panned.y).toBeLessThan(before.y - 20);
    expect(panned.zoom).toBe(before.zoom);

    const centre = await emptySpot(box);
    await gesture(
      [
        { x: centre.x - 30, y: centre.y },
        { x: centre.x + 30, y: centre.y },
      ],
      [
        { x: centre.x - 120, y: centre.y },
        { x: centre.x + 120, y: centre.y },
      ],
    );
    await expect.poll(async () => (await viewport()).zoom).toBeGreaterThan(panned.zoom * 1.5);

    await page.getByTestId("fit-view").tap();
    await viewportSettled(page);
    const target = page.locator('.react-flow__node[data-id="contract:design-user-schema"]');
    await expect.poll(() => target.isVisible()).toBe(true);
    const n = (await target.boundingBox())!;
    await page.touchscreen.tap(n.x + n.width / 2, n.y + n.height / 2);
    const panel = page.getByTestId("canvas-panel");
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await panel.getAttribute("aria-label")).toBe("details of contract design-user-schema");
    // A sheet over the canvas's lower part, on screen, not below the canvas; the node stays in view above it.
    const sheet = (await panel.boundingBox())!;
    expect([sheet.x, sheet.width, sheet.y + sheet.height]).toEqual([0, PHONE.width, PHONE.height]);
    expect(sheet.y).toBeLessThan(box.y + box.height);
    await viewportSettled(page);
    const shown = (await target.boundingBox())!;
    expect(shown.y).toBeGreaterThan(box.y);
    expect(shown.y + shown.height).toBeLessThan(sheet.y);
    await expectFits(page, "the canvas with a panel");
    await page.screenshot({ path: path.join(SCREENSHOTS, "phone-canvas-tapped.png") });
    await page.getByRole("button", { name: "close details" }).tap();
    await expect.poll(() => panel.count()).toBe(0);
  });
});
