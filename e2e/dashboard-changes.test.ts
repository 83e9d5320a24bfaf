/**
 * The session page's Changes tab in a real browser, with the real `claude` CLI editing files in its work tree (the
 * fake model calls Edit and Write) and a real git repository: the diff follows the session's turns without a
 * reload; a comment on a line number reaches the session as a message naming the file and line (and the model sees
 * it); several comments go as one review; Check shows a clean merge and Merge writes the base branch. A second member
 * that changed the same line gets its conflict listed file by file, and the hub's refusals are shown as it words them;
 * Refresh shows a file written outside any turn.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { allPrompts } from "./fake-anthropic/request.ts";
import { launchBrowser, screenshot, SCREENSHOTS } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree, type WorkTree } from "./helpers/work-tree.ts";

const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join("\n")}\n`;
/** A long path and a long line: what must still fit a 390 px screen (the diff may scroll inside itself). */
const LONG = "src/services/authentication/providers/oauth2-authorization-code-flow-handler.ts";
const LONG_LINE = `export const scopes = ["openid", "profile", "email", "offline_access", "https://example.com/auth/calendar.readonly"];`;

let sh: SessionHub;
let browser: Browser;
let page: Page;
let repo: WorkTree;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", text(LINES));
  fs.mkdirSync(path.join(sh.work, path.dirname(LONG)), { recursive: true });
  repo.write(LONG, text(["export const scopes = [];", "export const flow = 1;"]));
  repo.commit("start");
  expect((await api(sh.hub, "PATCH", "/api/teams/wt/settings", { gateEnforcement: "off" })).status).toBe(200);
  for (const name of ["alice", "bob"]) {
    const r = await api(sh.hub, "POST", "/api/team-spawn", { team: "wt", name, role: "dev", workDir: sh.work });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    dirs[name] = r.body.workDir;
    await waitForSession(sh.hub, name, (s) => s.status === "idle");
  }
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

/** One turn of the scripted model, waited for. */
async function turn(name: string, directives: string[]): Promise<void> {
  const r = await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: directives.join("\n"), wait: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.interaction.status, JSON.stringify(r.body.interaction)).toBe("completed");
}

type Interaction = { prompt: string; status: string };
const interactions = async (name: string): Promise<Interaction[]> => (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions;

/** The turn the dashboard's message started, once it finished: the message as the session received it. */
async function receivedTurn(name: string, count: number): Promise<Interaction> {
  await expect.poll(async () => (await interactions(name)).map((i) => i.status), { timeout: 30_000 }).toEqual(Array(count).fill("completed"));
  return (await interactions(name)).at(-1)!;
}

/** The line-number cell of the diff row showing `code`: what a reviewer clicks to comment. */
const gutterOf = (code: string) =>
  page
    .locator("tr.diff-line", { has: page.locator("td.diff-code", { hasText: code }) })
    .locator("td.diff-gutter")
    .last();

const fileList = () => page.getByRole("list", { name: "Changed files" }).innerText();

/** From the top: scrolled, the shell's sticky header would sit in the middle of a full-page screenshot. */
async function shot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The dark theme on the page as it is (a reload would lose the comments shown so far). */
async function themed(theme: "dark" | null, fn: () => Promise<unknown>) {
  await page.evaluate((t) => (t ? document.documentElement.setAttribute("data-theme", t) : document.documentElement.removeAttribute("data-theme")), theme);
  try {
    await fn();
  } finally {
    await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));
  }
}

describe("the Changes tab", () => {
  it("follows the session's edits live, sends a line comment and a review as messages, checks and merges", async () => {
    const file = (name: string) => path.join(dirs[name], "app.txt");
    // Claude's Edit needs a Read of the file first.
    await turn("alice", [
      `@read ${file("alice")}`,
      `@edit ${file("alice")}|line 2|line 2 by alice`,
      `@read ${path.join(dirs.alice, LONG)}`,
      `@edit ${path.join(dirs.alice, LONG)}|export const scopes = [];|${LONG_LINE}`,
      "@reply edited",
    ]);

    await page.goto(`${sh.hub.url}/sessions/alice?tab=changes`);
    // A mark on the window: gone if anything below reloads the page.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await expect.poll(() => page.getByTestId("code-file").count(), { timeout: 30_000 }).toBe(2);
    expect(await fileList()).toContain(LONG);
    await expect.poll(() => gutterOf("line 2 by alice").isVisible()).toBe(true);

    // A turn that writes a new file shows up without a reload: the turn's /ws events refetch the changes.
    await turn("alice", [`@write ${path.join(dirs.alice, "notes.txt")}|written while the page was open`, "@reply noted"]);
    await expect.poll(fileList, { timeout: 30_000 }).toContain("notes.txt");
    await expect.poll(() => gutterOf("written while the page was open").isVisible()).toBe(true);

    // One comment, sent at once.
    await gutterOf("line 2 by alice").click();
    const form = page.getByRole("form", { name: "Comment on app.txt line 2" });
    await form.getByRole("textbox").fill("Please say why line two changed.");
    await page.setViewportSize({ width: 390, height: 844 });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "changes-comment-draft-390.png") });
    await page.setViewportSize({ width: 1366, height: 768 });
    await form.getByRole("button", { name: "Send to session" }).click();
    const sent = page.locator('[data-testid="line-comment"][data-status="sent"]');
    await expect.poll(() => sent.count(), { timeout: 30_000 }).toBe(1);
    expect(await sent.innerText()).toContain("Please say why line two changed.");
    const message = "Review comment on app.txt line 2 (`+ line 2 by alice`):\nPlease say why line two changed.";
    expect((await receivedTurn("alice", 3)).prompt).toBe(message);
    expect(sh.fake.requests.some((r) => allPrompts(r).some((p) => p.includes(message)))).toBe(true);

    // Two comments kept for the review, then sent as one message.
    await gutterOf(LONG_LINE.slice(0, 30)).click();
    const onLong = page.getByRole("form", { name: `Comment on ${LONG} line 1` });
    await onLong.getByRole("textbox").fill("Ask for the calendar scope only when it is used.");
    await onLong.getByRole("button", { name: "Add to review" }).click();
    await gutterOf("written while the page was open").click();
    const onNotes = page.getByRole("form", { name: "Comment on notes.txt line 1" });
    await onNotes.getByRole("textbox").fill("Delete this file before the merge?");
    await onNotes.getByRole("button", { name: "Add to review" }).click();
    const review = page.getByRole("region", { name: "Review" });
    await expect.poll(() => review.innerText()).toContain("2 comments in the review");
    // The screen as a reviewer sees it, scrolled down: the review bar held at its foot (a full-page shot would not).
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.screenshot({ path: path.join(SCREENSHOTS, "changes-review.png") });
    await review.getByRole("button", { name: "Send review (2)" }).click();
    await expect.poll(() => sent.count(), { timeout: 30_000 }).toBe(3);
    await expect.poll(() => review.count()).toBe(0);
    const last = (await receivedTurn("alice", 4)).prompt;
    expect(last).toMatch(/^Review of your changes, 2 comments:\n\n1\. On src\/services\/.*handler\.ts line 1 \(`\+ export const scopes = \[/);
    expect(last).toContain("Ask for the calendar scope only when it is used.");
    expect(last).toContain("2. On notes.txt line 1 (`+ written while the page was open`):\nDelete this file before the merge?");
    expect(await page.evaluate(() => "notReloaded" in window)).toBe(true);

    await shot("changes-comment");
    await themed("dark", () => shot("changes-comment-dark"));
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("changes-comment-390");
    // Nothing but the diff's own table may be wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1366, height: 768 });

    // Check: clean, with the prefilled message; Merge with an edited message writes the base branch.
    const panel = page.getByTestId("merge-panel");
    await panel.getByRole("button", { name: "Check" }).click();
    await expect.poll(() => panel.getByTestId("merge-check").getAttribute("data-outcome"), { timeout: 30_000 }).toBe("clean");
    expect(await panel.getByTestId("merge-check").innerText()).toContain("Clean: 3 files merge into main");
    await expect.poll(() => panel.getByTestId("merge-message").inputValue()).toContain("Merged from teamhub/wt/alice (session alice, team wt)");
    await panel.getByTestId("merge-message").fill("Alice's work, reviewed on the Changes tab");
    await panel.getByRole("button", { name: "Merge", exact: true }).click();
    await expect
      .poll(() => panel.getByTestId("merge-result").innerText(), { timeout: 30_000 })
      .toMatch(/Merged into main \(merge\): commit [0-9a-f]{12}, 3 files/);
    expect(fs.readFileSync(path.join(sh.work, "app.txt"), "utf8")).toBe(text(LINES.map((l, i) => (i === 1 ? "line 2 by alice" : l))));
    expect(fs.readFileSync(path.join(sh.work, "notes.txt"), "utf8")).toBe("written while the page was open");
    expect(repo.git("log", "-1", "--format=%s")).toBe("Alice's work, reviewed on the Changes tab");
    expect(repo.status()).toBe("");
    // Merged work is the new base: nothing left to show.
    await expect.poll(() => page.getByTestId("changes-card").innerText(), { timeout: 30_000 }).toContain("No changes.");
  }, 180_000);

  it("lists a second member's conflict file by file after a manual refresh, shows the hub's refusals, and refuses to discard a live session", async () => {
    await turn("bob", [`@read ${path.join(dirs.bob, "app.txt")}`, `@edit ${path.join(dirs.bob, "app.txt")}|line 2|line 2 by bob`, "@reply edited"]);
    await page.goto(`${sh.hub.url}/sessions/bob?tab=changes`);
    await expect.poll(() => page.getByTestId("code-file").count(), { timeout: 30_000 }).toBe(1);
    // A file written behind the hub's back (no turn, so no event) shows on Refresh.
    fs.writeFileSync(path.join(dirs.bob, "by-hand.txt"), "written outside any turn\n");
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(fileList, { timeout: 30_000 }).toContain("by-hand.txt");
    const panel = page.getByTestId("merge-panel");
    const refs = repo.git("for-each-ref", "--format=%(refname) %(objectname)");

    await panel.getByRole("button", { name: "Check" }).click();
    await expect.poll(() => panel.getByTestId("merge-check").getAttribute("data-outcome"), { timeout: 30_000 }).toBe("conflicts");
    expect(await panel.getByRole("list", { name: "Conflicting files" }).innerText()).toBe("C app.txt");
    expect(await panel.getByRole("button", { name: "Merge", exact: true }).isDisabled()).toBe(true);
    await shot("changes-conflict");

    // Another mode clears the check; a merge anyway is the hub's 409, naming the file.
    await panel.getByRole("radio", { name: "squash" }).click();
    await panel.getByRole("button", { name: "Merge", exact: true }).click();
    const refusal = panel.getByTestId("merge-error");
    await expect.poll(() => refusal.innerText(), { timeout: 30_000 }).toContain("would conflict in 1 file: app.txt; nothing was written");
    expect(await refusal.getByRole("listitem").allInnerTexts()).toEqual(["app.txt"]);
    await shot("changes-merge-refused");

    // Discard asks first; the hub refuses while the session runs, and says why.
    await panel.getByRole("button", { name: "Discard" }).click();
    await page.getByRole("dialog", { name: "Discard" }).getByRole("button", { name: "Discard" }).click();
    // The merge's refusal makes way for the discard's: one answer at a time.
    await expect.poll(() => refusal.innerText(), { timeout: 30_000 }).toBe("session 'bob' is idle; stop it before discarding its work tree");
    expect(repo.git("for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
    expect(repo.status()).toBe("");
    expect(fs.existsSync(path.join(dirs.bob, "app.txt"))).toBe(true);
  }, 120_000);
});
