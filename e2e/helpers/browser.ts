/**
 * Debian's Chromium driven by playwright-core (no browser download), in its headless shell
 * (`chromium-headless-shell`, the same release as the `chromium` package): the build Playwright itself runs
 * headless tests on. Against the full browser in headless mode it launches on a third of the CPU and loads a
 * page on about 20% less, with the same Blink and V8 (docs/testing.md#processes). The shell has no notification
 * service: `Notification.permission` stays "denied" whatever is granted, so a test of browser notifications asks
 * for the full browser (`{ notifications: true }`). `CHROMIUM_PATH` picks the build for every test, e.g.
 * `/usr/bin/chromium`. The flags keep it off the network: this machine refuses outside connections and Chromium
 * would otherwise keep trying.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./hub-process.ts";

export const SCREENSHOTS = path.join(ROOT, "e2e", "screenshots");

export function launchBrowser({ notifications = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (notifications ? "/usr/bin/chromium" : "/usr/bin/chromium-headless-shell"),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The whole page, or with `fullPage: false` what the window shows (a page hundreds of rows long). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * Waits until the page follows the hub live: hydrated (the header's state is rendered by React) and its /ws connection
 * open. A cold hub builds its first pages and a loaded machine hydrates slowly, so this waits long, not a second.
 */
export async function waitLive(page: Page, timeout = 30_000): Promise<void> {
  await page.locator('[data-testid="live"].live-on').waitFor({ timeout });
}

/** Elements wider than the window, named: why a page scrolls sideways. Empty when it does not. */
export function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    if (doc.scrollWidth <= doc.clientWidth && document.body.scrollWidth <= document.body.clientWidth) return [];
    return [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
      .slice(0, 12)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} (${Math.round(el.getBoundingClientRect().right)} px)`);
  });
}
