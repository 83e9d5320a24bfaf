/**
 * The sandbox from the outside (docs/security.md#sandbox): a hub whose bubblewrap works runs every session in it and
 * says so; a hub where it cannot run warns at start and marks every session "not sandboxed" in the
 * API, the session list and the session page — and the CLI still works in both, with the session's own
 * CLI config dir either way.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { conversationFiles, startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let boxed: SessionHub;
let open: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [boxed, open, browser] = await Promise.all([
    startSessionHub(directiveModel()),
    startSessionHub(directiveModel(), { TEAMHUB_BWRAP: "/nonexistent/bwrap" }),
    launchBrowser(),
  ]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([boxed?.close(), open?.close()]);
});

const spawn = async (sh: SessionHub, name: string) => {
  const prompt = "@bash cat /proc/1/comm; ls -A $HOME\n@reply seen";
  expect((await api(sh.hub, "POST", "/api/sessions", { name, allowedTools: ["Bash"], prompt })).status).toBe(201);
  return waitForSession(sh.hub, name, (s) => s.status === "idle" && s.interactions === 1 && s.lastOutput !== null);
};

describe("a hub with bubblewrap", () => {
  it("runs the session as pid 1 of its own namespace with nothing of HOME, and says so", async () => {
    expect(boxed.hub.log()).not.toContain("NOT be sandboxed");
    expect((await api(boxed.hub, "GET", "/api/health")).body.sandbox).toBe("bubblewrap");
    const s = await spawn(boxed, "boxed");
    expect(s).toMatchObject({ sandbox: "bubblewrap", lastOutput: "seen" });
    const transcript = JSON.stringify((await api(boxed.hub, "GET", "/api/sessions/boxed/transcript?limit=500")).body.entries);
    // pid 1 of the namespace is the CLI itself; HOME holds TMPDIR, nothing else (there is no login to show, the key is in the environment).
    expect(transcript).toMatch(/"content":"claude[^"]*\\ntmp"/);
  }, 120_000);
});

describe("a hub where bubblewrap cannot run", () => {
  it("warns at start, and its sessions run unsandboxed, marked so in the API, the list and the session page", async () => {
    expect(open.hub.log()).toMatch(/WARNING: sessions will NOT be sandboxed \(\/nonexistent\/bwrap: ENOENT/);
    expect((await api(open.hub, "GET", "/api/health")).body.sandbox).toBe("none");
    const s = await spawn(open, "open");
    expect(s).toMatchObject({ sandbox: "none", lastOutput: "seen" });
    // Unsandboxed too, the CLI keeps its conversation in the session's own config dir, and nothing in the user's.
    expect(conversationFiles(open.hub, s.claudeSessionId)).toHaveLength(1);
    for (const file of [".claude", ".claude.json"]) expect(fs.existsSync(path.join(open.claudeHome, file))).toBe(false);

    await page.goto(`${open.hub.url}/sessions`);
    await expect.poll(() => page.getByTestId("session-open").getByTestId("not-sandboxed").innerText()).toBe("not sandboxed");
    await page.goto(`${open.hub.url}/sessions/open`);
    await expect.poll(() => page.getByTestId("not-sandboxed").innerText()).toBe("not sandboxed");
    await screenshot(page, "session-not-sandboxed");

    await page.goto(`${boxed.hub.url}/sessions`);
    await expect.poll(() => page.getByTestId("session-boxed").innerText()).toContain("boxed");
    expect(await page.getByTestId("not-sandboxed").count()).toBe(0);
  }, 120_000);
});
