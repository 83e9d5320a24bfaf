/**
 * A used-up usage window on the overview (docs/limits.md#the-hold), with the real `claude` on a subscriber's token and
 * the fake API refusing with the rate-limit headers until `wall`: the needs-attention row names the account, its
 * window, its reset and the sessions it holds, and a person resumes the held turns now or cancels them from there.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MessagesRequest } from "./fake-anthropic/request.ts";
import type { Reply } from "./fake-anthropic/server.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { usedUpWindow } from "./fake-anthropic/usage-limit.ts";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

const OAUTH = { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-teamhub-dashboard" };
let wall = 0;
const scripted = directiveModel();

async function subscriberApi(req: MessagesRequest): Promise<Reply> {
  return Date.now() >= wall ? scripted(req) : usedUpWindow(wall);
}

let sh: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(subscriberApi, {}, { credentials: OAUTH }), launchBrowser()]);
  for (const name of ["alice", "bob"]) {
    expect((await api(sh.hub, "POST", "/api/sessions", { name, workDir: sh.work })).status).toBe(201);
    await waitForSession(sh.hub, name, (s) => s.status === "idle", 60_000);
  }
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${sh.hub.url}/`);
  await waitLive(page);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const completed = async (name: string) =>
  ((await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions as any[]).filter((i) => i.status === "completed").length;

/** Both sessions held by a window used up for `ms`; returns the account's row. */
async function holdBoth(ms: number) {
  wall = Date.now() + ms;
  for (const name of ["alice", "bob"]) {
    expect((await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: `@reply ${name} after the wall` })).status).toBe(200);
    await waitForSession(sh.hub, name, (s) => s.problem?.startsWith("limited until") && s.queued === 1, 30_000);
  }
  const [{ account }] = (await api(sh.hub, "GET", "/api/accounts")).body;
  const row = page.getByTestId(`attention-account-${account}`);
  await expect.poll(() => row.innerText()).toMatch(/five-hour window used up · resets at \d\d:\d\d, in \d+ min[\s\S]*holds alice, bob until the reset/);
  return row;
}

describe("a held account on the overview", () => {
  it("names the window, its reset and the sessions held, and Resume now sends their turns", async () => {
    const done = { alice: await completed("alice"), bob: await completed("bob") };
    const row = await holdBoth(30 * 60_000);
    // Held sessions are the account's row, not problems of their own.
    await expect.poll(() => page.getByTestId("attention-session-alice").count()).toBe(0);
    await screenshot(page, "overview-account-held");
    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await waitLive(page);
    await expect.poll(() => row.innerText()).toContain("Resume now");
    await screenshot(page, "overview-account-held-dark");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await sideways(page)).toEqual([]);
    await screenshot(page, "overview-account-held-390");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await waitLive(page);

    // The window is free again before its announced reset: a person sends the turns now.
    wall = 0;
    await row.getByRole("button", { name: "Resume now" }).click();
    await expect.poll(() => row.count()).toBe(0);
    await vi.waitFor(
      async () => {
        expect(await completed("alice")).toBe(done.alice + 1);
        expect(await completed("bob")).toBe(done.bob + 1);
      },
      { timeout: 60_000, interval: 200 },
    );
    const released = (await api(sh.hub, "GET", "/api/events?hub=true&type=account.released&limit=10")).body.events as any[];
    expect(released.at(-1).payload).toMatchObject({ how: "early", sessions: ["alice", "bob"] });
  });

  it("cancels the held turns after a question", async () => {
    const row = await holdBoth(30 * 60_000);
    await row.getByRole("button", { name: "Cancel held turns" }).click();
    await expect.poll(() => row.innerText()).toContain("Cancel the waiting turns of 2 sessions?");
    // Asked, and not answered yes: nothing changes.
    await row.getByRole("button", { name: "No", exact: true }).click();
    expect((await api(sh.hub, "GET", "/api/accounts")).body).toMatchObject([{ status: "limited", held: ["alice", "bob"] }]);
    await row.getByRole("button", { name: "Cancel held turns" }).click();
    await row.getByRole("button", { name: "Yes, cancel them" }).click();
    await expect.poll(() => row.count()).toBe(0);
    for (const name of ["alice", "bob"]) {
      const history = (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions as any[];
      expect(history.at(-1)).toMatchObject({ status: "cancelled" });
    }
    expect((await api(sh.hub, "GET", "/api/accounts")).body).toEqual([]);
    wall = 0;
  });
});
