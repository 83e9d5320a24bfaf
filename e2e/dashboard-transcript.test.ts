/**
 * A transcript as the session page renders it, with the real `claude` on the fake Messages API: the model's
 * markdown (a heading, a highlighted code block, a table), an Edit and a Write as diffs, a long tool output
 * folded, and an image in the model's text named but never loaded (an agent must not make the dashboard fetch).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;
/** Counts requests an image in the transcript would make. */
let tracker: http.Server;
let fetched = 0;

beforeAll(async () => {
  tracker = http.createServer((_, res) => {
    fetched += 1;
    res.end();
  });
  await new Promise<void>((resolve) => tracker.listen(0, "127.0.0.1", resolve));
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
  await new Promise((resolve) => tracker?.close(resolve));
});

const MARKDOWN = ["# Plan", "Changed **one** line.", "```ts", "const answer: number = 42;", "```", "| file | lines |", "|---|---|", "| app.txt | 1 |"].join(
  "\\n",
);

describe("a transcript renders", () => {
  it("the model's markdown with a highlighted code block, an Edit and a Write as diffs, long output folded, no image loaded", async () => {
    const file = path.join(sh.work, "notes.txt");
    const long = path.join(sh.work, "long.txt");
    fs.writeFileSync(long, Array.from({ length: 80 }, (_, i) => `row ${i + 1}`).join("\n"));
    const image = `![pixel](http://127.0.0.1:${(tracker.address() as AddressInfo).port}/leak.png)`;
    const prompt = [`@write ${file}|first draft`, `@edit ${file}|first draft|second draft`, `@bash cat ${long}`, `@reply ${MARKDOWN}\\n\\n${image}`].join("\n");
    const r = await api(sh.hub, "POST", "/api/sessions", { name: "writer", preset: "full", prompt });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await waitForSession(sh.hub, "writer", (s) => s.status === "idle" && s.interactions === 1, 60_000);
    expect(fs.readFileSync(file, "utf8")).toBe("second draft");

    await page.goto(`${sh.hub.url}/sessions/writer`);
    const reply = page.getByTestId("tx-text").last();
    await expect.poll(() => reply.locator("h1").innerText(), { timeout: 30_000 }).toBe("Plan");
    expect(await reply.locator("strong").innerText()).toBe("one");
    expect(await reply.locator("pre code.language-ts .hljs-keyword").first().innerText()).toBe("const");
    expect(await reply.locator("table td").allInnerTexts()).toEqual(["app.txt", "1"]);
    expect(await reply.locator("img").count()).toBe(0);
    expect(await reply.locator(".md-image").innerText()).toContain("[image: pixel]");
    expect(fetched).toBe(0);

    const tools = page.getByTestId("tx-tool");
    const write = tools.filter({ hasText: "Write" });
    await write.locator("summary").click();
    expect(await write.locator(".diff-code-insert").allInnerTexts()).toEqual(["first draft"]);
    const edit = tools.filter({ hasText: "Edit" });
    await edit.locator("summary").click();
    expect(await edit.locator(".diff-code-delete").allInnerTexts()).toEqual(["first draft"]);
    expect(await edit.locator(".diff-code-insert").allInnerTexts()).toEqual(["second draft"]);

    const bash = tools.filter({ hasText: "Bash" });
    await bash.locator("summary").click();
    const output = bash.locator(".tx-output");
    expect((await output.innerText()).split("\n")).toHaveLength(30);
    await bash.getByRole("button", { name: "show all 80 lines" }).click();
    await expect.poll(async () => (await output.innerText()).split("\n").length).toBe(80);

    await screenshot(page, "transcript-markdown");
    await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await expect.poll(() => page.getByTestId("tx-text").last().locator("h1").innerText(), { timeout: 30_000 }).toBe("Plan");
    await page.getByTestId("tx-tool").filter({ hasText: "Edit" }).locator("summary").click();
    await screenshot(page, "transcript-markdown-dark");
    await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => page.getByTestId("tx-text").last().locator("h1").innerText(), { timeout: 30_000 }).toBe("Plan");
    await page.getByTestId("tx-tool").filter({ hasText: "Edit" }).locator("summary").click();
    await screenshot(page, "transcript-markdown-390");
    expect(fetched).toBe(0);
  }, 120_000);
});
