/**
 * Moving around the dashboard without a reload, in a real browser against a real hub with a team that has
 * contracts, artifacts and a snapshot: from every page of the header to every other one, by clicking its link
 * and by the Ctrl+K palette, each page shows its own content and none crashes. Every page's queries stay in the
 * one client cache as the next page mounts, so a key two pages share with two shapes of data shows up here as
 * "This page couldn't load" (as it once did going from Overview to Artifacts).
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;
const errors: string[] = [];

/** The Quick Start demo's ids (docs/domain.md#quick-start-demo). */
const CONTRACT = "write-auth-tests";
const ARTIFACT = "test-results-auth";

type Target = { label: string; path: string; shows: (p: Page) => Locator[] };
const h1 = (p: Page, name: string) => p.getByRole("heading", { name, level: 1, exact: true });

/** The header's pages in its order, each with what only it shows once its data is in. */
const PAGES: Target[] = [
  {
    label: "Overview",
    path: "/",
    shows: (p) => [p.getByTestId("contracts").getByText(CONTRACT).first(), p.getByTestId("artifacts").getByText(ARTIFACT).first()],
  },
  { label: "Sessions", path: "/sessions", shows: (p) => [p.getByRole("heading", { name: "Sessions in default" })] },
  { label: "Inbox", path: "/inbox", shows: (p) => [h1(p, "Inbox"), p.getByRole("heading", { name: "Your inbox (operator)" })] },
  { label: "Approvals", path: "/approvals", shows: (p) => [p.getByRole("heading", { name: /^Waiting for a decision/ })] },
  { label: "Artifacts", path: "/artifacts", shows: (p) => [h1(p, "Artifacts"), p.getByRole("link", { name: ARTIFACT, exact: true })] },
  { label: "Canvas", path: "/canvas", shows: (p) => [h1(p, "Canvas"), p.locator('[data-testid="canvas"][data-nodes="6"]')] },
  { label: "Pipelines", path: "/pipelines", shows: (p) => [h1(p, "Pipelines")] },
  { label: "Snapshots", path: "/snapshots", shows: (p) => [h1(p, "Snapshots"), p.getByTestId("snapshots").getByText("before the tour").first()] },
  { label: "Budgets", path: "/budgets", shows: (p) => [h1(p, "Budgets")] },
  { label: "Settings", path: "/settings", shows: (p) => [h1(p, "Settings")] },
  { label: "Knowledge", path: "/knowledge", shows: (p) => [h1(p, "Knowledge")] },
];

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  expect((await api(hub, "POST", "/api/teams/default/demo", {})).status).toBe(201);
  expect((await api(hub, "POST", "/api/snapshots", { label: "before the tour" })).status).toBe(201);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  page.on("pageerror", (e) => errors.push(e.message));
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

/**
 * Every ordered pair of pages once, each leg starting where the one before ended: an Euler circuit of the
 * complete directed graph (Hierholzer's), n·(n−1) legs instead of a reload per pair.
 */
function everyPair(n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => j).filter((j) => j !== i));
  const stack = [0];
  const circuit: number[] = [];
  while (stack.length > 0) {
    const at = stack[stack.length - 1];
    if (out[at].length > 0) stack.push(out[at].shift()!);
    else circuit.push(stack.pop()!);
  }
  return circuit.reverse();
}

/** "shown" once the page is at the target and shows its content; otherwise what is wrong, or what it waits for. */
async function arrival(to: { path: string; shows: (p: Page) => Locator[] }): Promise<string> {
  if (errors.length > 0) return `page error: ${errors.join(" | ")}`;
  if ((await page.getByText(/This page couldn.t load/).count()) > 0) return "This page couldn't load";
  const at = new URL(page.url());
  if (`${at.pathname}${at.search}` !== to.path) return `still at ${at.pathname}${at.search}`;
  for (const l of to.shows(page)) if (!(await l.isVisible())) return `waiting for ${l}`;
  return "shown";
}

async function arrive(from: string, to: Target | { label: string; path: string; shows: (p: Page) => Locator[] }, via: string) {
  await expect.poll(() => arrival(to), { timeout: 15_000, message: `${from} → ${to.label} (${via})` }).toBe("shown");
}

async function start() {
  errors.length = 0;
  await page.goto(hub.url);
  // The first load of a fresh hub's page can take seconds to connect /ws on a busy machine.
  await expect.poll(() => page.getByTestId("live").innerText(), { timeout: 15_000 }).toContain("live");
  await arrive("a fresh load", PAGES[0], "goto");
}

/** Ctrl+K, the query, the entry it must rank first, Enter. */
async function jump(query: string, entry: RegExp) {
  const palette = page.getByRole("dialog", { name: "Go to" });
  await page.keyboard.press("Control+k");
  await expect.poll(() => palette.isVisible()).toBe(true);
  await page.keyboard.type(query);
  await expect.poll(() => palette.getByRole("option").first().innerText()).toMatch(entry);
  await page.keyboard.press("Enter");
  await expect.poll(() => palette.isVisible()).toBe(false);
}

describe("moving between pages without a reload", () => {
  it("the header lists the pages this test visits", async () => {
    await start();
    const nav = page.getByRole("navigation", { name: "pages" });
    const labels = (await nav.getByRole("link").allInnerTexts()).map((t) => t.replace(/\d+$/, "").trim());
    expect(labels).toEqual(PAGES.map((p) => p.label));
  });

  it("reaches every page from every other page by its header link, each showing its own content", async () => {
    await start();
    const nav = page.getByRole("navigation", { name: "pages" });
    const tour = everyPair(PAGES.length);
    expect(tour.length).toBe(PAGES.length * (PAGES.length - 1) + 1);
    for (let i = 1; i < tour.length; i++) {
      const [from, to] = [PAGES[tour[i - 1]], PAGES[tour[i]]];
      await nav.getByRole("link", { name: new RegExp(`^${to.label}`) }).click();
      await arrive(from.label, to, "header link");
      expect(await nav.getByRole("link", { name: new RegExp(`^${to.label}`) }).getAttribute("aria-current")).toBe("page");
    }
    expect(errors).toEqual([]);
  }, 180_000);

  it("reaches every page from every other page with the Ctrl+K palette, and a contract and an artifact from it", async () => {
    await start();
    const tour = everyPair(PAGES.length);
    for (let i = 1; i < tour.length; i++) {
      const [from, to] = [PAGES[tour[i - 1]], PAGES[tour[i]]];
      await jump(to.label, new RegExp(`^${to.label}\\s+page$`));
      await arrive(from.label, to, "palette");
    }

    // Entries of the team's data: an artifact's page and a contract on the canvas, then back to the lists.
    const artifact = { label: ARTIFACT, path: `/artifacts/${ARTIFACT}`, shows: (p: Page) => [h1(p, ARTIFACT)] };
    await jump(ARTIFACT, new RegExp(`^${ARTIFACT}\\s+artifact`));
    await arrive("Overview", artifact, "palette");
    await jump("Artifacts", /^Artifacts\s+page$/);
    await arrive(ARTIFACT, PAGES[4], "palette");
    await jump(ARTIFACT, new RegExp(`^${ARTIFACT}\\s+artifact`));
    await arrive("Artifacts", artifact, "palette");
    const contract = {
      label: CONTRACT,
      path: `/canvas?contract=${CONTRACT}`,
      shows: (p: Page) => [h1(p, "Canvas"), p.getByTestId("canvas-panel").getByText(CONTRACT).first()],
    };
    await jump(CONTRACT, new RegExp(`^${CONTRACT}\\s+contract`));
    await arrive(ARTIFACT, contract, "palette");
    await jump("Overview", /^Overview\s+page$/);
    await arrive(CONTRACT, PAGES[0], "palette");
    expect(errors).toEqual([]);
  }, 180_000);
});
