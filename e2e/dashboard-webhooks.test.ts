/**
 * Settings → Webhooks in a real browser (docs/notifications.md): a refused URL or event shows the hub's message under
 * its field; an added webhook shows its secret once; Test shows how it went; a failed contract appears among the
 * deliveries; Disable and Delete do what they say.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../server/testing/webhook-receiver.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let receiver: Receiver;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  receiver = await startReceiver();
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
  await receiver?.close();
});

describe("Settings → Webhooks", () => {
  it("adds a webhook (secret shown once), tests it, lists its deliveries, disables and deletes it", async () => {
    await page.goto(`${hub.url}/settings`);
    const card = page.getByTestId("webhooks-card");
    // Loaded and hydrated: the list has answered.
    await card.getByText("No webhooks yet.").waitFor({ timeout: 60_000 });
    await card.getByLabel("webhook name").fill("ops");
    await card.getByLabel("webhook URL").fill("ftp://files.example.com/x");
    await card.getByLabel("webhook events").fill("session.approval_requested, contract.failed");
    await card.getByRole("button", { name: "Add webhook" }).click();
    await expect.poll(() => card.innerText()).toContain("must use http or https, not ftp");
    await expect
      .poll(() => card.innerText())
      .toContain("'contract.failed' is not an event type of the catalog (docs/events.md); use 'contract.status_changed:failed'");
    expect((await api(hub, "GET", "/api/webhooks")).body).toEqual([]);

    await card.getByLabel("webhook URL").fill(`${receiver.url}/ops`);
    await card.getByLabel("webhook events").fill("session.approval_requested");
    await card.getByRole("button", { name: "+ contract failed" }).click();
    await card.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await card.getByTestId("webhook-secret").locator("code").innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    const row = card.getByTestId("webhook-ops");
    await expect
      .poll(() => row.innerText())
      .toMatch(/ops\s+json\s+http:\/\/127\.0\.0\.1:\d+\/ops\s+session\.approval_requested, contract\.status_changed:failed\s+enabled/);
    await screenshot(page, "settings-webhooks-added");
    await card.getByRole("button", { name: "Done" }).click();
    expect(await card.innerText()).not.toContain(secret);

    await row.getByRole("button", { name: "test ops" }).click();
    await expect.poll(() => card.getByTestId("test-result-ops").innerText()).toBe("Test delivered (HTTP 200)");
    expect(receiver.received.map((r) => r.headers["x-teamhub-event"])).toEqual(["webhook.test"]);

    expect((await api(hub, "POST", "/api/contracts", { id: "doomed", title: "Doomed", assignee: "dev" })).status).toBe(201);
    expect((await api(hub, "POST", "/api/contracts/doomed/fail", { reason: "tests never passed" })).status).toBe(200);
    await receiver.waitFor(2);
    await row.getByRole("button", { name: "deliveries of ops" }).click();
    const log = card.getByTestId("deliveries-ops");
    await expect.poll(() => log.innerText(), { timeout: 20_000 }).toMatch(/contract\.status_changed #\d+\s+delivered\s+1\/6\s+HTTP 200/);
    await expect.poll(() => log.innerText()).toMatch(/test\s+delivered\s+1\/1\s+HTTP 200/);
    await screenshot(page, "settings-webhooks-deliveries");
    // On a phone the section fits: its tables scroll inside the card, the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(wide).toBeLessThanOrEqual(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, "settings-webhooks-phone", { fullPage: false });
    await page.setViewportSize({ width: 1366, height: 900 });

    await row.getByRole("button", { name: "disable ops" }).click();
    await expect.poll(() => row.innerText()).toContain("disabled");
    expect((await api(hub, "GET", "/api/webhooks")).body[0].enabled).toBe(false);

    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => card.innerText()).toContain("No webhooks yet.");
    expect((await api(hub, "GET", "/api/webhooks")).body).toEqual([]);
  }, 120_000);
});
