/**
 * For the canvas's browser tests: when the canvas has settled, and what the page did meanwhile. A probe installed
 * before navigation records long tasks and every change of the number of drawn nodes, timed by animation frames
 * (a frame cannot run during a long task, so a stall never counts as settled).
 */
import type { Browser, Page } from "playwright-core";
import { expect, vi } from "vitest";
import { launchBrowser } from "./browser.ts";
import { startHub, type HubProcess } from "./hub-process.ts";

type Probe = { longTasks: number[]; counts: Array<[number, number]>; lastFrame: number };

/** Nodes drawn: xyflow's node elements, or the zoomed-out view's count. */
export const drawnCount = (p: Page) =>
  p.evaluate(
    () => document.querySelectorAll(".react-flow__node").length || Number(document.querySelector<SVGElement>("svg.overview-nodes")?.dataset.nodes ?? 0),
  );

export async function installProbe(p: Page): Promise<void> {
  await p.addInitScript(() => {
    const w = window as unknown as Probe;
    w.longTasks = [];
    w.counts = [];
    w.lastFrame = 0;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: "longtask", buffered: true });
    let last = -1;
    const tick = () => {
      const n = document.querySelectorAll(".react-flow__node").length || Number(document.querySelector<SVGElement>("svg.overview-nodes")?.dataset.nodes ?? 0);
      w.lastFrame = performance.now();
      if (n !== last) w.counts.push([performance.now(), (last = n)]);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export const readProbe = (p: Page) =>
  p.evaluate(() => {
    const w = window as unknown as Probe;
    return { longTasks: w.longTasks, counts: w.counts, lastFrame: w.lastFrame };
  });

export const clearLongTasks = (p: Page) => p.evaluate(() => ((window as unknown as Probe).longTasks = []));

/** Complete: nodes are drawn and their number has not changed for a second of frames; the counts over time. */
export const settledCounts = (p: Page, timeout: number) =>
  vi.waitFor(
    async () => {
      const probe = await readProbe(p);
      const [at, n] = probe.counts[probe.counts.length - 1] ?? [0, 0];
      if (!(n > 0 && probe.lastFrame - at > 1000)) throw new Error(`the canvas never settled: ${JSON.stringify(probe.counts)}`);
      return probe.counts;
    },
    { timeout, interval: 100 },
  );

/**
 * Until the viewport's transform stays the same across two animation frames: a pan to a new node (200 ms) or a fit
 * may still be moving the nodes, and a drag measured before it ends misses its target.
 */
export async function viewportSettled(p: Page): Promise<void> {
  const still = () =>
    p.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const before = document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform;
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform === before)),
          );
        }),
    );
  await expect.poll(still).toBe(true);
}

/** xyflow's viewport transform as its style says it ("transform: translate(…) scale(…);"). */
export const viewportOf = (p: Page) => p.locator(".react-flow__viewport").getAttribute("style");

/** The canvas's zoom, read from its viewport's transform. */
export const zoomOf = async (p: Page): Promise<number> => Number(/scale\(([\d.]+)\)/.exec((await viewportOf(p)) ?? "")?.[1]);

/** A drag on the canvas's pane as a hand makes it, in 20 steps. */
export async function dragPane(p: Page, from: { x: number; y: number }, by: { x: number; y: number }): Promise<void> {
  await p.mouse.move(from.x, from.y);
  await p.mouse.down();
  await p.mouse.move(from.x + by.x, from.y + by.y, { steps: 20 });
  await p.mouse.up();
}

/** Wheel steps, each one drawn before the next (the viewport still for two frames): long tasks are what a person would feel. */
export async function wheel(p: Page, steps: number, deltaY: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    await p.mouse.wheel(0, deltaY);
    await viewportSettled(p);
  }
}

/**
 * A hub and a browser for a canvas budget. A hub loads Next.js and a page's code when the page is first asked for
 * (docs/architecture.md#processes): the canvas is asked for here once, so that the render measured is the browser's,
 * as on a hub that has served the canvas before.
 */
export async function canvasBench(): Promise<{ hub: HubProcess; browser: Browser; close: () => Promise<void> }> {
  const [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  expect((await fetch(`${hub.url}/canvas`)).status).toBe(200);
  return { hub, browser, close: async () => (await browser.close(), await hub.kill()) };
}
