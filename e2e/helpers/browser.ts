/**
 * Debian's Chromium driven by playwright-core (no browser download). The flags keep it off the
 * network: this machine refuses outside connections and Chromium would otherwise keep trying.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./hub-process.ts";

export const SCREENSHOTS = path.join(ROOT, "e2e", "screenshots");

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
