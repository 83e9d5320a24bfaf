/**
 * Deciding a permission request where it is seen (docs/dashboard.md#decide-where-you-see-it), with the real `claude` on
 * the fake Messages API: from its toast on another page, from its needs-attention row ("Allow for this session", after
 * which the same command runs without asking), and from its row in the approvals queue (Deny with a note). A 40-line
 * command's toast stays one line and never lies over the card's Allow and Deny, at 1440 and 390 px, light and dark.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel, lastTurnPrompt, roundsSinceLastPrompt } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

/** A command of 40 lines, as a model writes a script inline. */
const LONG = Array.from({ length: 40 }, (_, i) => `echo "step ${i + 1} of a long script that does many things in a row" >> /dev/null`).join("\n");

let sh: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // "run the script": the 40-line command, then a reply.
  const model = directiveModel((req) =>
    !lastTurnPrompt(req).includes("run the script")
      ? undefined
      : roundsSinceLastPrompt(req) === 0
        ? { tools: [{ name: "Bash", input: { command: LONG } }] }
        : { text: "ran it" },
  );
  [sh, browser] = await Promise.all([startSessionHub(model), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const marker = (name: string) => path.join(sh.work, `${name}.done`);

/** Spawns a session whose first turn asks to run `touch <marker>`, and waits for its request. */
async function asking(name: string, prompt = `@bash touch ${marker(name)}\n@reply finished`): Promise<number> {
  const r = await api(sh.hub, "POST", "/api/sessions", { name, preset: "edit", prompt });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const s = await waitForSession(sh.hub, name, (x) => x.status === "waiting_permission" && x.approvals.length === 1, 60_000);
  return s.approvals[0].id;
}

/** A page's link in the header (its name may carry a count: "Approvals 1 waiting"). */
const nav = (label: string) => page.getByRole("navigation", { name: "pages" }).getByRole("link", { name: new RegExp(`^${label}\\b`) });
const toastOf = (name: string) => page.getByTestId("alert").filter({ hasText: `${name} needs approval` });

describe("deciding where the request is seen", () => {
  it("allows from the toast on another page, the session goes on", async () => {
    await page.goto(`${sh.hub.url}/artifacts`);
    await waitLive(page);
    await asking("t1");
    const toast = toastOf("t1");
    await expect.poll(() => toast.count(), { timeout: 30_000 }).toBe(1);
    expect(await toast.innerText()).toContain(`Bash: touch ${marker("t1")}`);
    await screenshot(page, "decide-toast", { fullPage: false });
    await toast.getByRole("button", { name: "Allow", exact: true }).click();
    await waitForSession(sh.hub, "t1", (s) => s.status === "idle" && s.lastOutput === "finished", 60_000);
    expect(fs.existsSync(marker("t1"))).toBe(true);
    await expect.poll(() => toast.count(), { timeout: 10_000 }).toBe(0);
  }, 120_000);

  it("allows for the session from the overview's row: the same command then runs without asking", async () => {
    await nav("Overview").click();
    const id = await asking("t2");
    const row = page.getByTestId(`attention-approval-${id}`);
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    // Its toast stays where it covers nothing of the row.
    await expect.poll(() => toastOf("t2").count(), { timeout: 15_000 }).toBe(1);
    const [t, r] = [(await toastOf("t2").boundingBox())!, (await row.boundingBox())!];
    expect(t.y >= r.y + r.height || t.y + t.height <= r.y || t.x >= r.x + r.width || t.x + t.width <= r.x).toBe(true);
    await row.getByRole("button", { name: `more answers for request ${id}: a note, or allow for this session` }).click();
    await row.getByLabel(`note for request ${id}`).fill("touching is fine");
    await screenshot(page, "decide-overview-row", { fullPage: false });
    await row.getByRole("button", { name: "Allow for this session", exact: true }).click();
    await waitForSession(sh.hub, "t2", (s) => s.status === "idle" && s.lastOutput === "finished", 60_000);
    const s = (await api(sh.hub, "GET", "/api/sessions/t2")).body;
    expect(s.allowedTools).toEqual([`Bash(touch ${marker("t2")})`]);
    const decided = (await api(sh.hub, "GET", "/api/approvals?status=allowed")).body.find((a: { id: number }) => a.id === id);
    expect(decided).toMatchObject({ note: "touching is fine", decidedBy: "operator" });

    // The same command again: allowed by the rule, no request.
    fs.rmSync(marker("t2"));
    expect((await api(sh.hub, "POST", "/api/sessions/t2/send", { message: `@bash touch ${marker("t2")}\n@reply again`, wait: true })).status).toBe(200);
    expect(fs.existsSync(marker("t2"))).toBe(true);
    expect((await api(sh.hub, "GET", "/api/approvals")).body.filter((a: { session: string }) => a.session === "t2")).toHaveLength(1);
  }, 120_000);

  it("denies with a note from the approvals queue's row", async () => {
    await nav("Approvals").click();
    const id = await asking("t3");
    const row = page.getByTestId(`queued-${id}`);
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await row.getByRole("button", { name: `more answers for request ${id}: a note, or allow for this session` }).click();
    await row.getByLabel(`note for request ${id}`).fill("not in this repo");
    await screenshot(page, "decide-queue-row", { fullPage: false });
    await row.getByRole("button", { name: "Deny", exact: true }).click();
    await waitForSession(sh.hub, "t3", (s) => s.status === "idle", 60_000);
    expect(fs.existsSync(marker("t3"))).toBe(false);
    await expect.poll(() => page.getByTestId("approvals-decided").innerText()).toMatch(/t3\s+Bash\s+denied\s+operator[\s\S]*not in this repo/);
  }, 120_000);

  it("keeps a 40-line command's toast to one line, never over the card's Allow and Deny", async () => {
    for (const [width, height, theme] of [
      [1440, 900, "light"],
      [390, 844, "dark"],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate((t) => window.localStorage.setItem("teamhub.theme", t), theme);
      await page.goto(`${sh.hub.url}/pipelines`);
      await waitLive(page);
      const name = `long-${width}`;
      expect((await api(sh.hub, "POST", "/api/sessions", { name, preset: "edit", prompt: "run the script" })).status).toBe(201);
      const toast = toastOf(name);
      await expect.poll(() => toast.count(), { timeout: 60_000 }).toBe(1);
      const box = (await toast.boundingBox())!;
      expect(box.height, "one line").toBeLessThan(44);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await sideways(page)).toEqual([]);
      await screenshot(page, `decide-long-toast-${width}-${theme}`, { fullPage: false });

      // Through the toast's link to the session: the card shows, and no toast covers its buttons.
      await toast.getByRole("link").click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe(`/sessions/${name}`);
      const card = page.locator('[data-testid^="approval-"]').first();
      await card.waitFor({ timeout: 30_000 });
      await card.scrollIntoViewIfNeeded();
      const buttons = await Promise.all(["Allow", "Deny"].map((b) => card.getByRole("button", { name: b, exact: true }).boundingBox()));
      const toasts = await page.getByTestId("alert").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      for (const b of buttons) {
        for (const t of toasts) {
          const apart = b!.x + b!.width <= t.x || t.x + t.width <= b!.x || b!.y + b!.height <= t.y || t.y + t.height <= b!.y;
          expect(apart, `a toast covers ${JSON.stringify(b)}`).toBe(true);
        }
      }
      expect(await sideways(page)).toEqual([]);
      await screenshot(page, `decide-long-card-${width}-${theme}`, { fullPage: false });
      await card.getByRole("button", { name: "Deny", exact: true }).click();
      await waitForSession(sh.hub, name, (s) => s.status === "idle", 60_000);
    }
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 180_000);
});
