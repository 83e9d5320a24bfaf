/**
 * The artifacts, inbox and settings pages in a real browser against a real hub: filters and the
 * artifact page (version diff, readers, lineage links that navigate), the operator's inbox and the
 * team's conversation following messages live (a member writes and asks over HTTP with its own
 * token; the operator answers from the page), and the settings (team options that persist, the
 * bounds on what member tokens may spawn, the operator token, member tokens, Claude Code setup commands).
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: hub.url });
  page = await context.newPage();
  for (const name of ["api-dev", "qa-dev"]) tokens[name] = (await api(hub, "POST", "/api/tokens", { name })).body.token;
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

const text = (testId: string) => page.getByTestId(testId).innerText();
const as = (member: string) => ({ authorization: `Bearer ${tokens[member]}` });
const ok = async (r: Promise<{ status: number; body: any }>) => {
  const { status, body } = await r;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};
function trackNavigations(): string[] {
  const navigations: string[] = [];
  page.on("framenavigated", (f) => navigations.push(f.url()));
  return navigations;
}

/** From the top of the page, so the sticky header sits where it belongs in the full-page picture. */
async function shot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function darkScreenshot(name: string) {
  await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await waitLive(page);
  await shot(name);
  await page.evaluate(() => window.localStorage.removeItem("teamhub.theme"));
}

describe("artifacts", () => {
  beforeAll(async () => {
    await ok(
      api(hub, "POST", "/api/artifacts", {
        id: "schema-user-model",
        type: "schema-change",
        tags: ["auth"],
        summary: "first cut",
        data: { models: [{ name: "User", fields: ["email", "password"] }] },
      }),
    );
    await ok(
      api(
        hub,
        "POST",
        "/api/artifacts",
        {
          id: "api-contract-user-auth",
          type: "api-contract",
          derivedFrom: ["schema-user-model@v1"],
          data: { endpoints: [{ method: "POST", path: "/login" }] },
        },
        as("api-dev"),
      ),
    );
    await ok(
      api(hub, "POST", "/api/contracts", {
        id: "write-auth-tests",
        title: "Write integration tests",
        assignee: "qa-dev",
        dependencies: [{ type: "artifact", artifactId: "api-contract-user-auth" }],
      }),
    );
    await ok(api(hub, "GET", "/api/artifacts/schema-user-model?version=1", undefined, as("qa-dev")));
    await ok(
      api(hub, "POST", "/api/artifacts", {
        id: "schema-user-model",
        type: "schema-change",
        tags: ["auth"],
        summary: "hash the password",
        data: { models: [{ name: "User", fields: ["email", "passwordHash"] }] },
      }),
    );
  });

  it("lists artifacts with their stale badge and filters by type, tag, publisher and staleness", async () => {
    await page.goto(`${hub.url}/artifacts`);
    await waitLive(page);
    await expect.poll(() => text("artifact-row-schema-user-model")).toMatch(/schema-change\s+v2\s+active\s+operator\s+auth/);
    await expect.poll(() => text("artifact-row-api-contract-user-auth")).toMatch(/stale[\s\S]*api-contract\s+v1\s+active\s+api-dev/);
    expect(await page.getByTestId("artifact-row-schema-user-model").getByTestId("stale-badge").count()).toBe(0);
    const staleWhy = await page.getByTestId("artifact-row-api-contract-user-auth").getByTestId("stale-badge").getAttribute("title");
    expect(staleWhy).toBe("schema-user-model@v1 was superseded by schema-user-model@v2; path: api-contract-user-auth@v1 ← schema-user-model@v1 (derivedFrom)");

    const filters = page.getByRole("search", { name: "filter artifacts" });
    const rows = () =>
      page
        .getByTestId("artifact-list")
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-testid")));
    await filters.getByLabel("type").selectOption("api-contract");
    await expect.poll(rows).toEqual(["artifact-row-api-contract-user-auth"]);
    await filters.getByRole("button", { name: "Clear" }).click();
    await filters.getByLabel("tag").fill("auth");
    await expect.poll(rows).toEqual(["artifact-row-schema-user-model"]);
    await filters.getByLabel("tag").fill("");
    await filters.getByLabel("publisher").fill("api-dev");
    await expect.poll(rows).toEqual(["artifact-row-api-contract-user-auth"]);
    await filters.getByLabel("publisher").fill("no one");
    await expect
      .poll(() => page.locator('section[aria-label="artifacts"] p.error').innerText())
      .toContain("Could not load: publisher: must be letters, digits");
    await filters.getByRole("button", { name: "Clear" }).click();
    await filters.getByLabel("stale only").check();
    await expect.poll(rows).toEqual(["artifact-row-api-contract-user-auth"]);
    await filters.getByLabel("stale only").uncheck();
    await expect.poll(rows).toEqual(["artifact-row-schema-user-model", "artifact-row-api-contract-user-auth"]);

    // A new artifact shows up without a reload.
    const navigations = trackNavigations();
    await ok(api(hub, "POST", "/api/artifacts", { id: "test-results-auth", type: "test-results", data: { total: 3, passed: 3, failed: 0 } }));
    await expect.poll(rows).toContain("artifact-row-test-results-auth");
    expect(navigations).toEqual([]);
    await shot("artifacts");
  });

  it("shows versions, the data and a diff, readers, and lineage links that navigate; browsing records no reads", async () => {
    await page.getByRole("link", { name: "schema-user-model" }).click();
    await page.waitForURL(/\/artifacts\/schema-user-model/);
    await expect.poll(() => text("artifact-head")).toMatch(/schema-user-model\s+active/);
    await expect.poll(() => text("version-2")).toMatch(/v2\s+active\s+operator\s+—\s+—[\s\S]*hash the password/);
    await expect.poll(() => text("version-1")).toContain("first cut");
    expect(await page.getByRole("button", { name: "show v2" }).getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => text("version-data")).toContain('"passwordHash"');

    const diff = page.getByTestId("version-diff");
    await expect.poll(() => diff.locator('tr[data-path="models[0].fields[1]"]').getAttribute("data-change")).toBe("changed");
    expect(await diff.locator('tr[data-path="models[0].fields[1]"]').innerText()).toMatch(/"password"\s+"passwordHash"/);
    expect(await diff.locator('tr[data-path="models[0].name"]').getAttribute("data-change")).toBe("same");
    await diff.getByText("only changed fields").click();
    await expect.poll(() => diff.locator("tbody tr").count()).toBe(1);

    await expect.poll(() => text("reader-qa-dev")).toMatch(/qa-dev\s+v1\s*behind v2/);
    await expect.poll(() => text("lineage-card")).toContain("v2 was not derived from another version");
    await expect.poll(() => text("used-by")).toContain("api-contract-user-auth@v1");
    await expect.poll(() => text("contracts")).toMatch(/write-auth-tests\s+ready\s+\(qa-dev\) depends on api-contract-user-auth/);
    await shot("artifact-detail");
    await darkScreenshot("artifact-detail-dark");

    // Used by → the derived artifact, stale because it was built on v1.
    await page.getByTestId("used-by").getByRole("link", { name: "api-contract-user-auth@v1" }).click();
    await page.waitForURL(/\/artifacts\/api-contract-user-auth/);
    await expect
      .poll(() => text("stale-reason"))
      .toMatch(/^schema-user-model@v1 was superseded by schema-user-model@v2\s+path: api-contract-user-auth@v1 ← schema-user-model@v1 \(derivedFrom\)$/);
    await expect.poll(() => text("derived-from")).toBe("schema-user-model@v1");
    await expect.poll(() => text("contracts")).toContain("write-auth-tests");

    // Derived from → that exact version of the source.
    await page.getByTestId("derived-from").getByRole("link", { name: "schema-user-model@v1" }).click();
    await page.waitForURL(/\/artifacts\/schema-user-model\?.*version=1/);
    await expect.poll(() => page.getByRole("button", { name: "show v1" }).getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => text("version-data")).toContain('"password"');
    await expect.poll(() => text("made-from")).toContain("api-contract-user-auth@v1");

    // Only the member's read is on record: looking at versions here is not reading them.
    const readers = await ok(api(hub, "GET", "/api/artifacts/schema-user-model/readers"));
    expect(readers.reads.map((r: { reader: string; version: number }) => [r.reader, r.version])).toEqual([["qa-dev", 1]]);
  });
});

describe("inbox", () => {
  beforeAll(async () => {
    await ok(api(hub, "POST", "/api/roster", { name: "api-dev", role: "backend", status: "busy", currentTask: "auth endpoints" }));
    await ok(api(hub, "POST", "/api/roster", { name: "qa-dev", role: "tests" }));
  });

  it("shows a member's DM to the operator live, and the operator's reply reaches the member", async () => {
    await page.goto(`${hub.url}/inbox`);
    await waitLive(page);
    await expect.poll(() => text("member-api-dev")).toMatch(/api-dev\s+backend\s+busy\s+auth endpoints[\s\S]*no session/);
    await expect.poll(() => text("operator-inbox")).toContain("No messages to the operator");

    const navigations = trackNavigations();
    const sent = await ok(api(hub, "POST", "/api/chat/send", { to: "operator", message: "blocked on the DB password" }, as("api-dev")));
    const item = page.getByTestId(`inbox-message-${sent.messageId}`);
    await expect.poll(() => item.innerText()).toMatch(/api-dev\s+dm\s*new[\s\S]*blocked on the DB password/);
    expect(navigations).toEqual([]);

    await item.getByRole("button", { name: `reply to message ${sent.messageId} from api-dev` }).click();
    await item.getByLabel("reply to api-dev").fill("it is in the vault under db/dev");
    await item.getByRole("button", { name: "Reply to api-dev" }).click();
    await expect
      .poll(async () =>
        (await ok(api(hub, "POST", "/api/chat/inbox", {}, as("api-dev")))).messages.map((m: { from: string; kind: string; text: string; replyTo: number }) => [
          m.from,
          m.kind,
          m.text,
          m.replyTo,
        ]),
      )
      .toEqual([["operator", "reply", "it is in the vault under db/dev", sent.messageId]]);
    await expect.poll(() => text(`team-message-${sent.messageId}`)).toMatch(/api-dev\s+→ operator\s+dm[\s\S]*(^|\s)read · #/);
    await page.getByRole("button", { name: "Mark all seen" }).click();
    await expect.poll(() => item.innerText()).not.toContain("new");
  });

  it("counts the operator's unread messages on the Inbox link, until the inbox is opened", async () => {
    await page.goto(`${hub.url}/`);
    await waitLive(page);
    expect(await page.getByTestId("inbox-unread").count()).toBe(0);
    await ok(api(hub, "POST", "/api/chat/send", { to: "operator", message: "are you there?" }, as("api-dev")));
    await ok(api(hub, "POST", "/api/chat/send", { to: "operator", message: "the build is red" }, as("api-dev")));
    await expect.poll(() => page.getByTestId("inbox-unread").innerText()).toBe("2");
    expect(await page.getByTestId("inbox-unread").getAttribute("aria-label")).toBe("2 unread");
    await page.getByRole("link", { name: /^Inbox/ }).click();
    await expect.poll(() => text("operator-inbox")).toContain("the build is red");
    await expect.poll(() => page.getByTestId("inbox-unread").count()).toBe(0);
  });

  it("lists an ask awaiting reply; answering it from the page answers the waiting member", async () => {
    const asking = api(hub, "POST", "/api/chat/ask", { to: "operator", question: "which port does staging use?", timeoutSeconds: 60 }, as("qa-dev"));
    const ask = page.getByTestId("awaiting-replies").locator("li", { hasText: "which port does staging use?" });
    await expect.poll(() => ask.innerText()).toMatch(/qa-dev\s+asked operator[\s\S]*which port/);
    await expect.poll(() => page.getByTestId("team-conversation").innerText()).toMatch(/qa-dev\s+→ operator\s+ask\s+awaiting reply/);
    await page.getByTestId("conversation").getByLabel("kind").selectOption("ask");
    await expect.poll(() => page.getByTestId("team-conversation").locator("li").count()).toBe(1);
    await page.getByTestId("conversation").getByLabel("kind").selectOption("");
    await shot("inbox");

    await ask.getByRole("button", { name: /^reply to message/ }).click();
    await ask.getByLabel("reply to qa-dev").fill("8443");
    await ask.getByRole("button", { name: "Reply to qa-dev" }).click();
    const answer = (await asking).body;
    expect(answer).toMatchObject({ answered: true, reply: { from: "operator", text: "8443" } });
    await expect.poll(() => text("awaiting-replies")).toContain("No question is waiting for an answer");
    await expect.poll(() => page.getByTestId("team-conversation").innerText()).toMatch(/answered by #\d+/);
  });

  it("sends and broadcasts as the operator, shows the hub's refusal, and filters the conversation by member", async () => {
    const compose = page.getByRole("form", { name: "send a message" });
    await page.getByRole("button", { name: "write to qa-dev" }).click();
    expect(await compose.getByLabel("recipient").inputValue()).toBe("qa-dev");
    await compose.getByLabel("message").fill("x".repeat(10_001));
    await compose.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => compose.getByRole("alert").innerText()).toBe("message: must be at most 10000 characters");

    await compose.getByLabel("message").fill("please re-run the suite");
    await compose.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => compose.getByRole("status").innerText()).toBe("Sent to qa-dev.");
    await compose.getByLabel("recipient").selectOption("*");
    await compose.getByLabel("message").fill("deploying in 5 minutes");
    await compose.getByRole("button", { name: "Broadcast" }).click();
    const conversation = page.getByTestId("team-conversation");
    await expect.poll(() => conversation.innerText()).toMatch(/operator\s+→ api-dev, qa-dev\s+broadcast[\s\S]*read by 0 of 2/);
    const inbox = await ok(api(hub, "POST", "/api/chat/inbox", {}, as("qa-dev")));
    expect(
      inbox.messages.filter((m: { unread: boolean }) => m.unread).map((m: { from: string; kind: string; text: string }) => [m.from, m.kind, m.text]),
    ).toEqual([
      ["operator", "broadcast", "deploying in 5 minutes"],
      ["operator", "dm", "please re-run the suite"],
      [
        "operator",
        "contract",
        expect.stringMatching(/^operator created contract 'write-auth-tests' \(Write integration tests\) for you\. It is ready: start it with contract_start/),
      ],
    ]);
    await expect.poll(() => conversation.innerText()).toContain("read by 1 of 2");

    await page.getByTestId("conversation").getByLabel("member").selectOption("api-dev");
    await expect.poll(async () => (await conversation.innerText()).includes("please re-run the suite")).toBe(false);
    await expect.poll(() => conversation.innerText()).toContain("blocked on the DB password");
  });
});

describe("the operator-only reads behind these pages", () => {
  it("refuse members, and reading the team's conversation marks nothing read", async () => {
    for (const route of ["/api/chat/messages", "/api/operator-token", "/api/tokens"]) {
      const r = await api(hub, "GET", route, undefined, as("qa-dev"));
      expect([route, r.status, r.body.error.code]).toEqual([route, 403, "forbidden"]);
    }
    const bad = await api(hub, "GET", "/api/chat/messages?kind=gossip");
    expect([bad.status, bad.body.error.message]).toEqual([400, "kind: must be one of dm, broadcast, ask, reply, notify, turn, contract, system"]);

    const sent = await ok(api(hub, "POST", "/api/chat/send", { to: "qa-dev", message: "unread until qa-dev looks" }, as("api-dev")));
    const view = await ok(api(hub, "GET", "/api/chat/messages?member=qa-dev&kind=dm&limit=1"));
    expect(view.messages).toMatchObject([{ id: sent.messageId, from: "api-dev", to: "qa-dev", readAt: null, replyId: null }]);
    const inbox = await ok(api(hub, "POST", "/api/chat/inbox", { unreadOnly: true }, as("qa-dev")));
    expect(inbox.messages.map((m: { id: number }) => m.id)).toEqual([sent.messageId]);
  });
});

describe("settings", () => {
  it("changes a team option that persists, and shows the hub's refusal under the field", async () => {
    await page.goto(`${hub.url}/settings`);
    await waitLive(page);
    const form = page.getByRole("form", { name: "options of team default" });
    await expect.poll(() => form.getByLabel("Chat rate limit (messages per minute)").inputValue()).toBe("10");

    await form.getByLabel("Inbox live limit").fill("5");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => form.getByLabel("Inbox live limit").getAttribute("aria-invalid")).toBe("true");
    expect(
      await form
        .locator("label", { has: page.getByLabel("Inbox live limit") })
        .locator(".error")
        .innerText(),
    ).toBe("must be at least 10");

    await form.getByLabel("Inbox live limit").fill("2000");
    await form.getByLabel("Chat rate limit (messages per minute)").fill("25");
    await form.getByLabel("Wake-ups").selectOption("off");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => form.getByRole("status").innerText()).toBe("Saved.");
    expect(await ok(api(hub, "GET", "/api/teams/default/settings"))).toMatchObject({
      chatRateLimitPerMinute: 25,
      inboxLiveLimit: 2000,
      wake: "off",
      gateEnforcement: "on",
    });

    // A change made elsewhere shows up in the form.
    await ok(api(hub, "PATCH", "/api/teams/default/settings", { chatLoopMaxExchanges: 7 }));
    await expect.poll(() => form.getByLabel("Loop guard: exchanges").inputValue()).toBe("7");
  });

  it("sets what a member token may spawn, and a refused bound shows under its field with nothing saved", async () => {
    const form = page.getByRole("form", { name: "options of team default" });
    const preset = form.getByLabel("Member spawns: widest preset");
    const cost = form.getByLabel("Member spawns: max cost (USD)");
    await expect.poll(() => preset.inputValue()).toBe("edit");
    expect(await form.getByLabel("Member spawns: root directory").inputValue()).toBe("");
    expect(await form.getByLabel("Member spawns: max turns").inputValue()).toBe("50");
    expect(await form.getByLabel("Member spawns: max timeout (ms)").inputValue()).toBe("300000");

    await preset.selectOption("review");
    await cost.fill("1");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => form.getByRole("status").innerText()).toBe("Saved.");
    const saved = await ok(api(hub, "GET", "/api/teams/default/settings"));
    expect(saved).toMatchObject({ maxPreset: "review", maxCostUsd: 1, rootDir: null, maxTurns: 50, maxTimeoutMs: 300_000, chatLoopMaxExchanges: 7 });

    for (const bad of ["0", "-1"]) {
      await preset.selectOption("plan");
      await cost.fill(bad);
      await form.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => cost.getAttribute("aria-invalid")).toBe("true");
      expect(
        await form
          .locator("label", { has: page.getByLabel("Member spawns: max cost (USD)") })
          .locator(".error")
          .innerText(),
      ).toBe("must be more than 0");
      expect(await ok(api(hub, "GET", "/api/teams/default/settings"))).toEqual(saved);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing on the page may be wider than a phone screen (the tokens table scrolls inside its card).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await shot("settings-390");
    await page.setViewportSize({ width: 1366, height: 768 });

    await form.getByRole("button", { name: "Discard changes" }).click();
    await expect.poll(() => cost.inputValue()).toBe("1");
    expect(await preset.inputValue()).toBe("review");
    expect(await cost.getAttribute("aria-invalid")).toBeNull();
  });

  it("reveals and copies the operator token, issues and revokes a member token", async () => {
    const secret = fs.readFileSync(path.join(hub.dataDir, "operator-token"), "utf8").trim();
    const shown = page.getByTestId("operator-token");
    await expect.poll(() => shown.innerText()).toMatch(/^thop_•+$/);
    await page.getByRole("button", { name: "reveal the operator token" }).click();
    await expect.poll(() => shown.innerText()).toBe(secret);
    await page.getByRole("button", { name: "copy operator token" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByRole("button", { name: "hide the operator token" }).click();

    const issue = page.getByRole("form", { name: "issue a token" });
    await issue.getByLabel("token name").fill("operator");
    await issue.getByRole("button", { name: "Issue token" }).click();
    await expect.poll(() => issue.getByRole("alert").innerText()).toBe("name: 'operator' is reserved for people at the dashboard and CLI");
    await issue.getByLabel("token name").fill("ci-bot");
    await issue.getByLabel("token kind").selectOption("agent");
    await issue.getByLabel("token label").fill("nightly");
    await issue.getByRole("button", { name: "Issue token" }).click();
    const issued = (await issue.getByTestId("issued-token").locator("code").innerText()).trim();
    expect(issued).toMatch(/^tha_/);
    expect((await api(hub, "GET", "/api/roster", undefined, { authorization: `Bearer ${issued}` })).status).toBe(200);
    await expect.poll(() => text("token-ci-bot")).toMatch(/ci-bot\s+agent\s+nightly/);
    await shot("settings");

    await page.getByTestId("token-ci-bot").getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog", { name: "Revoke" }).getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => page.getByTestId("token-ci-bot").count()).toBe(0);
    expect((await api(hub, "GET", "/api/roster", undefined, { authorization: `Bearer ${issued}` })).status).toBe(401);
    expect(await page.getByTestId("token-operator").getByRole("button", { name: "Revoke" }).count()).toBe(0);
  });

  it("shows Claude Code setup commands for this hub with copy buttons, and remembers the alert sound", async () => {
    const commands = page.getByTestId("setup-command");
    expect(await commands.count()).toBeGreaterThanOrEqual(5);
    const lines = await commands.locator("code.cmd").allInnerTexts();
    expect(lines.slice(0, 4)).toEqual([
      `npx teamhub setup --local --guide --url ${hub.url}`,
      `npx teamhub setup --global --url ${hub.url}`,
      `npx teamhub setup --local --hooks --url ${hub.url}`,
      `npx teamhub setup --local --uninstall --url ${hub.url}`,
    ]);
    for (const c of await commands.all()) expect(await c.getByRole("button", { name: /^copy / }).count()).toBe(1);
    expect(JSON.parse(await text("mcp-json"))).toEqual({
      mcpServers: { teamhub: { type: "http", url: `${hub.url}/mcp`, headers: { Authorization: "Bearer <member token>" } } },
    });
    await page.getByRole("button", { name: "copy setup for this project with guides" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(lines[0]);

    await page.getByLabel("Play a sound with each alert (in this browser)").check();
    expect(await page.evaluate(() => window.localStorage.getItem("teamhub.sound"))).toBe("on");
    await page.reload();
    await expect.poll(() => page.getByLabel("Play a sound with each alert (in this browser)").isChecked()).toBe(true);
    await darkScreenshot("settings-dark");
  });
});
