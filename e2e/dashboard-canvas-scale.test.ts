/**
 * The canvas at a team's scale, in a real browser against a real hub: 300 contracts and 1,000
 * artifacts made through the API, found by search, narrowed to one node's lineage, grouped by member
 * and linked by dragging without the layout moving; and a small team's nodes zoomed from cards to boxes and back.
 * The 10,000-node benchmark, which needs a quiet machine, is e2e/dashboard-canvas-10000.test.ts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphView } from "../lib/api/graph.ts";
import { indexGraph, lineageOf } from "../components/graph/graph-index.ts";
import { groupsOf } from "../components/graph/grouping.ts";
import { dragPane, drawnCount, viewportOf, viewportSettled, zoomOf } from "./helpers/canvas-probe.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, pool, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;

const TEAM = "scale";
const STREAMS = 30;
const STEPS = 10;
const OUTPUTS = ["schema-change", "api-contract", "custom"];
const INPUTS = 100;
const MEMBERS = 8;

async function created(route: string, body: unknown) {
  const r = await api(hub, "POST", route, body);
  if (r.status !== 201) throw new Error(`${route}: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * 30 streams of 10 contracts (each on the one before, every fourth also on the stream before it),
 * each contract expecting 3 artifacts (900), and 100 published inputs, the first 30 needed by the
 * streams' first contracts and the rest derived from them; republishing the first ten inputs makes
 * what was derived from them stale. Some streams are started or failed, so every state shows.
 */
async function generateTeam(): Promise<void> {
  await pool(INPUTS, 6, (m) =>
    created("/api/artifacts", { team: TEAM, id: `in-${m}`, type: "custom", data: { m }, derivedFrom: m >= STREAMS ? [`in-${m - STREAMS}`] : [] }),
  );
  await pool(10, 6, (m) => created("/api/artifacts", { team: TEAM, id: `in-${m}`, type: "custom", data: { m, again: true } }));
  // Step by step across the streams: a contract's dependencies must exist before it does.
  for (let i = 0; i < STEPS; i++) {
    await pool(STREAMS, 6, (k) => {
      const dependencies = [
        ...(i ? [{ type: "contract", contractId: `s${k}-${i - 1}` }] : [{ type: "artifact", artifactId: `in-${k}` }]),
        ...(i % 4 === 3 && k ? [{ type: "contract", contractId: `s${k - 1}-${i - 1}` }] : []),
      ];
      return created("/api/contracts", {
        team: TEAM,
        id: `s${k}-${i}`,
        title: `Step ${i} of stream ${k}`,
        assignee: `dev-${k % MEMBERS}`,
        dependencies,
        expectedOutputs: OUTPUTS.map((artifactType, j) => ({ artifactType, artifactId: `s${k}-${i}-${j}` })),
      });
    });
  }
  await pool(STREAMS, 6, async (k) => {
    if (k % 3 === 0) expect((await api(hub, "POST", `/api/contracts/s${k}-0/start?team=${TEAM}`, {})).status).toBe(200);
    else if (k % 5 === 0) expect((await api(hub, "POST", `/api/contracts/s${k}-0/fail?team=${TEAM}`, { reason: "input missing" })).status).toBe(200);
  });
}

const graphOf = async (team: string): Promise<GraphView> => (await api(hub, "GET", `/api/graph?team=${team}`)).body;
const drawn = () => page.locator(".react-flow__node").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")!).sort());
const node = (key: string) => page.locator(`.react-flow__node[data-id="${key}"]`);
const edgesDrawn = () => page.locator(".react-flow__edge path.react-flow__edge-path").count();

/** Whether a node's box lies wholly inside the canvas's box. */
async function onScreen(key: string): Promise<boolean> {
  const [n, c] = [await node(key).boundingBox(), await page.getByTestId("canvas").boundingBox()];
  return !!n && !!c && n.x >= c.x && n.y >= c.y && n.x + n.width <= c.x + c.width && n.y + n.height <= c.y + c.height;
}

async function search(query: string) {
  const box = page.getByTestId("canvas-search");
  await box.fill(query);
  await expect.poll(() => page.getByTestId("canvas-search-results").locator('[role="option"]').first().getAttribute("data-key")).toBeTruthy();
  await box.press("Enter");
}

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const started = Date.now();
  await generateTeam();
  const graph = await graphOf(TEAM);
  expect([graph.nodes.filter((n) => n.kind === "contract").length, graph.nodes.filter((n) => n.kind === "artifact").length]).toEqual([300, 1000]);
  console.log(`[canvas-scale] generated 300 contracts, 1,000 artifacts and ${graph.edges.length} links through the API in ${Date.now() - started} ms`);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

describe("the canvas of a team of 300 contracts and 1,000 artifacts", () => {
  it("jumps to a searched node, focuses on its lineage, groups by member and links by dragging without moving the nodes", async () => {
    const graph = await graphOf(TEAM);
    await page.goto(`${hub.url}/canvas?team=${TEAM}`);
    await expect.poll(() => page.getByTestId("canvas").getAttribute("data-nodes")).toBe("1300");
    // Fitted to 1,300 nodes, no name would fit a box: the overview draws them all as boxes.
    await expect.poll(() => drawnCount(page)).toBe(1300);
    expect(await drawn()).toEqual([]);
    // Edges point somewhere even here: their arrowheads are paths of their own.
    expect(await page.locator(".overview-edges path.arrows").count()).toBeGreaterThan(0);
    // Past 1,000 nodes xyflow's minimap is left out and the canvas's own shows every box and where the view is.
    expect(await page.getByTestId("canvas-minimap").getAttribute("data-nodes")).toBe("1300");
    expect(await page.locator(".react-flow__minimap").count()).toBe(0);
    await screenshot(page, "canvas-scale");

    // Boxes are no elements here, yet Tab reaches one (one stop for the canvas), arrows move between them and Enter
    // zooms to the chosen one, which keeps the keyboard focus.
    await page.getByTestId("fit-view").focus();
    let tabs = 0;
    const onBox = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "overview-focus");
    for (; tabs < 100 && !(await onBox()); tabs++) await page.keyboard.press("Tab");
    expect(tabs).toBeLessThan(100);
    const firstBox = await page.getByTestId("overview-focus").getAttribute("data-id");
    expect(firstBox).toMatch(/^(contract|artifact):/);
    await expect.poll(() => page.locator(".node-ring.focused").count()).toBe(1);
    await expect.poll(() => page.getByTestId("node-tooltip").innerText()).toContain(firstBox!.slice(firstBox!.indexOf(":") + 1));
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByTestId("overview-focus").getAttribute("data-id")).not.toBe(firstBox);
    const chosenBox = (await page.getByTestId("overview-focus").getAttribute("data-id"))!;
    await screenshot(page, "canvas-overview-focus");
    await page.keyboard.press("Enter");
    await expect.poll(() => node(chosenBox).getAttribute("class")).toContain("selected");
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".react-flow__node")?.getAttribute("data-id"))).toBe(chosenBox);
    await page.keyboard.press("Escape");
    await page.getByTestId("fit-view").click();
    await expect.poll(() => drawnCount(page)).toBe(1300);

    // Pressing the minimap centres the view there.
    const before = await viewportOf(page);
    const map = (await page.getByTestId("canvas-minimap").boundingBox())!;
    await page.mouse.click(map.x + map.width * 0.2, map.y + map.height * 0.3);
    await expect.poll(() => viewportOf(page)).not.toBe(before);
    await page.getByTestId("fit-view").click();

    // Search: the best match is listed first; Enter selects it, brings it into view at a readable zoom and rings it.
    await page.getByTestId("canvas-search").fill("step 4 of stream 17");
    await expect.poll(() => page.getByTestId("canvas-search-results").innerText()).toMatch(/^s17-4\s+Step 4 of stream 17 · dev-1 · pending/);
    await page.getByTestId("canvas-search").press("Enter");
    await expect.poll(() => node("contract:s17-4").getAttribute("class")).toContain("selected");
    await viewportSettled(page);
    expect(await onScreen("contract:s17-4")).toBe(true);
    expect(await node("contract:s17-4").locator(".canvas-node-title").innerText()).toBe("Step 4 of stream 17");
    await expect.poll(() => page.locator(".node-ring.selected").count()).toBe(1);
    await expect.poll(() => page.getByTestId("canvas-panel").innerText()).toContain("Step 4 of stream 17");
    await screenshot(page, "canvas-search");

    // Hovering a node explains it in a tooltip; keyboard focus (Tab moves it to the next node) rings and explains it.
    await node("contract:s17-4").hover();
    await expect.poll(() => page.getByTestId("node-tooltip").innerText()).toMatch(/Step 4 of stream 17[\s\S]*contract s17-4 · pending[\s\S]*assigned to dev-1/);
    await page.mouse.move(1, 1);
    await node("contract:s17-4").focus();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.closest(".react-flow__node")?.getAttribute("data-id"));
    expect(focused).toMatch(/^(contract|artifact):/);
    expect(focused).not.toBe("contract:s17-4");
    await expect.poll(() => page.locator(".node-ring.focused").count()).toBe(1);
    await expect.poll(() => page.getByTestId("node-tooltip").innerText()).toContain(focused!.slice(focused!.indexOf(":") + 1));

    // Focus mode: only the lineage is drawn (upstream and downstream, two steps, then all of it).
    const index = indexGraph(graph);
    await page.getByTestId("focus-lineage").click();
    const two = [...lineageOf(index, "contract:s17-4", 2)].sort();
    await expect.poll(drawn).toEqual(two);
    expect(await page.getByTestId("lineage-bar").innerText()).toContain(`Lineage of s17-4 · ${two.length} nodes`);
    await screenshot(page, "canvas-lineage");
    await page.getByTestId("lineage-depth").selectOption("Infinity");
    const all = [...lineageOf(index, "contract:s17-4", Infinity)].sort();
    expect(all.length).toBeGreaterThan(two.length);
    await expect.poll(drawn).toEqual(all);
    await page.getByTestId("lineage-exit").click();
    await expect.poll(() => page.getByTestId("lineage-bar").count()).toBe(0);
    await expect.poll(() => drawnCount(page)).toBe(1300);

    // In the overview a box is no element, yet pointing at one explains it and clicking it zooms to it.
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    let spot: { x: number; y: number } | undefined;
    for (let fy = 0.3; !spot && fy < 0.7; fy += 0.02)
      for (let fx = 0.3; !spot && fx < 0.7; fx += 0.02) {
        await page.mouse.move(pane.x + pane.width * fx, pane.y + pane.height * fy);
        // A frame for React to draw what the move changed.
        await page.evaluate(() => new Promise(requestAnimationFrame));
        if (await page.getByTestId("node-tooltip").count()) spot = { x: pane.x + pane.width * fx, y: pane.y + pane.height * fy };
      }
    expect(spot).toBeDefined();
    await page.mouse.click(spot!.x, spot!.y);
    await expect.poll(() => page.locator(".react-flow__node.selected").count()).toBe(1);
    expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.8);
    await page.getByTestId("fit-view").click();
    await expect.poll(() => drawnCount(page)).toBe(1300);

    // Grouping by member: one box per member, then one member's nodes opened by clicking its box, then closed again.
    const groups = groupsOf(graph, "member");
    const names = [...new Set(groups.values())].sort();
    await page.getByTestId("group-by").selectOption("member");
    await expect.poll(drawn).toEqual(names.map((n) => `group:${n}`).sort());
    await screenshot(page, "canvas-groups");
    await node("group:dev-3").click();
    const dev3 = [...groups].filter(([, g]) => g === "dev-3").map(([k]) => k);
    await page.getByTestId("fit-view").click();
    await expect.poll(() => drawnCount(page)).toBe(dev3.length + names.length - 1);
    // Its members are boxed together in a frame named for it.
    expect(await page.getByTestId("frame-dev-3").innerText()).toBe("dev-3");
    await screenshot(page, "canvas-group-expanded");
    // The frame's button collapses it; with the keyboard, Enter on the group's box expands it and on the button collapses it.
    await page.getByTestId("collapse-dev-3").click();
    await expect.poll(() => drawnCount(page)).toBe(names.length);
    expect(await page.getByTestId("frame-dev-3").count()).toBe(0);
    await page.getByTestId("fit-view").click();
    await node("group:dev-3").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("frame-dev-3").count()).toBe(1);
    await page.getByTestId("fit-view").click();
    await expect.poll(() => drawnCount(page)).toBe(dev3.length + names.length - 1);
    await page.getByTestId("collapse-dev-3").focus();
    await screenshot(page, "canvas-group-collapse-button");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("frame-dev-3").count()).toBe(0);
    // The side bar's list opens and closes groups too.
    await page.getByTestId("canvas-groups").getByLabel("expand group dev-3").check();
    await expect.poll(() => page.getByTestId("frame-dev-3").count()).toBe(1);
    await page.getByTestId("canvas-groups").getByLabel("expand group dev-3").uncheck();
    await expect.poll(() => drawnCount(page)).toBe(names.length);
    await page.getByTestId("group-by").selectOption("");

    // A dependency drawn by dragging: both nodes stay where they were, on screen. s20-9 ends its stream (nothing
    // depends on it), so it may wait on any other contract in view without closing a cycle.
    await search("s20-9");
    await viewportSettled(page);
    const direct = new Set(graph.edges.filter((e) => e.to === "contract:s20-9").map((e) => e.from));
    let source: string | undefined;
    for (const k of await drawn()) if (!source && k.startsWith("contract:") && k !== "contract:s20-9" && !direct.has(k) && (await onScreen(k))) source = k;
    expect(source).toBeDefined();
    const [fromBox, toBox] = [await node(source!).boundingBox(), await node("contract:s20-9").boundingBox()];
    const [from, to] = [node(source!).locator(".react-flow__handle-bottom"), node("contract:s20-9").locator(".react-flow__handle-top")];
    const [a, b] = [(await from.boundingBox())!, (await to.boundingBox())!];
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId("canvas-notice").innerText()).toContain(`s20-9 now depends on contract ${source!.slice("contract:".length)}`);
    await expect.poll(() => page.locator(`.react-flow__edge[data-id="depends_on:${source}->contract:s20-9"]`).count()).toBe(1);
    expect(await node(source!).boundingBox()).toEqual(fromBox);
    expect(await node("contract:s20-9").boundingBox()).toEqual(toBox);
    expect([await onScreen(source!), await onScreen("contract:s20-9")]).toEqual([true, true]);
    await screenshot(page, "canvas-linked");

    // Dark, and at 390 px wide.
    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await search("s3-0");
    await expect.poll(() => node("contract:s3-0").getAttribute("class")).toContain("selected");
    await viewportSettled(page);
    await screenshot(page, "canvas-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => drawnCount(page)).toBe(1300);
    await screenshot(page, "canvas-390");
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 240_000);

  // The zoom lines of docs/canvas.md#levels-of-zoom-semantic-zoom crossed both ways: boxes turn into cards a chunk
  // per frame, and an edge waits for both its ends (use-staging.ts).
  it("draws a node's edges when it turns from a box into a card, in view or away from it", async () => {
    for (const [id, dependencies] of [
      ["first", []],
      ["second", [{ type: "contract", contractId: "first" }]],
      ["third", [{ type: "contract", contractId: "second" }]],
    ] as const)
      await created("/api/contracts", { team: "zoom", id, title: `The ${id} step`, assignee: "dev", dependencies });
    const cards = () => page.locator(".react-flow__node .canvas-node-title").count();
    await page.goto(`${hub.url}/canvas?team=zoom`);
    await expect.poll(cards).toBe(3);
    await expect.poll(edgesDrawn).toBe(2);
    const [zoomIn, zoomOut] = [page.getByRole("button", { name: "zoom in" }), page.getByRole("button", { name: "zoom out" })];
    const click = async (button: typeof zoomIn) => (await button.click(), await viewportSettled(page));
    const boxes = () => page.locator(".react-flow__node .canvas-node.compact").count();
    /** Out to the overview, where no node is an element, then in a step to boxes (between 0.3 and 0.4), drawn afresh. */
    const freshBoxes = async () => {
      while ((await zoomOf(page)) >= 0.3) await click(zoomOut);
      await expect.poll(() => page.locator(".react-flow__node").count()).toBe(0);
      await click(zoomIn);
      expect(await zoomOf(page)).toBeLessThan(0.4);
      await expect.poll(boxes).toBe(3);
    };
    // In to cards where the boxes are: each becomes a card, and their edges are drawn.
    await freshBoxes();
    await click(zoomIn);
    await expect.poll(cards).toBe(3);
    await expect.poll(edgesDrawn).toBe(2);
    // Boxes again, dragged out of view so none is drawn, then in to cards there, and back to them by fitting the view:
    // they come as cards, with their edges.
    await freshBoxes();
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    await dragPane(page, { x: pane.x + pane.width - 20, y: pane.y + 20 }, { x: 40 - pane.width, y: pane.height - 40 });
    await viewportSettled(page);
    await expect.poll(() => page.locator(".react-flow__node").count()).toBe(0);
    await click(zoomIn);
    expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.4);
    await page.getByTestId("fit-view").click();
    await viewportSettled(page);
    await expect.poll(cards).toBe(3);
    await expect.poll(edgesDrawn).toBe(2);
  }, 60_000);
});
