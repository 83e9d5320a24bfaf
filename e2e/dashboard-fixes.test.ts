/**
 * The fix beside each problem (docs/dashboard.md#a-fix-beside-every-problem), with a live team on the real `claude`
 * and the fake Messages API, reached the way a person moves (the header's links, a row's link): a failed turn retried
 * from its page; a used-up budget raised inline, which lets the held turn run; the phase gate's refusal of "Start team
 * member" cleared by running the gate, then by turning enforcement off; a stale artifact's producer told (Ctrl+Enter)
 * and its contract reopened; a session that gave its place to the admission queue says so and resumes.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel, lastTurnPrompt } from "./fake-anthropic/directives.ts";
import { launchBrowser, screenshot, sideways, waitLive } from "./helpers/browser.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;
let flakyCalls = 0;

beforeAll(async () => {
  // "flaky job" fails once with an API error the CLI does not retry, then works.
  const model = directiveModel((req) => {
    if (!lastTurnPrompt(req).includes("flaky job")) return undefined;
    return ++flakyCalls === 1 ? { error: 500, message: "overloaded for a moment", retry: false } : { text: "flaky job done" };
  });
  [sh, browser] = await Promise.all([startSessionHub(model, { TEAMHUB_MAX_LIVE_SESSIONS: "4" }), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${sh.hub.url}/`);
  await waitLive(page);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const ok = async (r: Promise<{ status: number; body: any }>) => {
  const { status, body } = await r;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};
const nav = (label: string) => page.getByRole("navigation", { name: "pages" }).getByRole("link", { name: new RegExp(`^${label}\\b`) });
/** To a session's page as a person goes: the Sessions page, then its row's link. */
async function openSession(name: string) {
  await nav("Sessions").click();
  await page.getByTestId(`session-${name}`).getByRole("link", { name, exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe(`/sessions/${name}`);
}

describe("a fix beside every problem", () => {
  it("retries a failed turn from its page", async () => {
    await ok(api(sh.hub, "POST", "/api/sessions", { name: "flaky", prompt: "flaky job" }));
    await waitForSession(sh.hub, "flaky", (s) => s.problem?.startsWith("last turn failed"), 60_000);
    await openSession("flaky");
    await expect.poll(() => page.getByTestId("session-problem").innerText(), { timeout: 15_000 }).toContain("last turn failed");
    await screenshot(page, "fix-retry-before", { fullPage: false });
    await page.getByRole("button", { name: "Retry the failed turn" }).click();
    const s = await waitForSession(sh.hub, "flaky", (x) => x.problem === null && x.lastOutput === "flaky job done", 60_000);
    expect(s.interactions).toBe(2);
    await expect.poll(() => page.getByTestId("session-problem").count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByRole("button", { name: "Retry the failed turn" }).count()).toBe(0);
  }, 120_000);

  it("raises a used-up budget inline, and the held turn runs", async () => {
    await ok(api(sh.hub, "POST", "/api/team-spawn", { name: "db-dev", role: "database" }));
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle", 60_000);
    await ok(api(sh.hub, "PUT", "/api/budgets", { scope: "member", target: "db-dev", amountUsd: 0.1 }));
    await ok(api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "@usage 60000 0\n@reply spent", wait: true }));
    await ok(api(sh.hub, "POST", "/api/sessions/db-dev/send", { message: "more please", wait: false }));
    await waitForSession(sh.hub, "db-dev", (s) => s.problem?.startsWith("blocked: budget"), 60_000);
    await openSession("db-dev");
    const raise = page.getByTestId("raise-member-db-dev");
    await expect.poll(() => raise.innerText(), { timeout: 15_000 }).toMatch(/member db-dev: \$0\.\d+ of \$0\.10 · raise to \$/);
    await screenshot(page, "fix-budget", { fullPage: false });
    await raise.getByRole("button", { name: "Raise" }).click();
    const s = await waitForSession(sh.hub, "db-dev", (x) => x.problem === null && x.lastOutput === "pong: more please", 60_000);
    expect(s.interactions).toBe(2);
    expect((await api(sh.hub, "GET", "/api/budgets")).body.find((b: { target: string }) => b.target === "db-dev")).toMatchObject({ usedUp: false });
  }, 120_000);

  it("clears the phase gate's refusal of Start team member: the gate run from the dashboard, then enforcement off", async () => {
    // A new spawn batch starts more than 5 s after the last one.
    await new Promise((r) => setTimeout(r, 5_500));
    await nav("Sessions").click();
    const form = page.getByRole("form", { name: "start a session" });
    const start = async (name: string) => {
      await form.getByRole("textbox", { name: "Name" }).fill(name);
      if (!(await form.getByLabel(/as team member/).isChecked())) await form.getByLabel(/as team member/).check();
      await form.getByRole("textbox", { name: "Role" }).fill("qa");
      await form.getByRole("button", { name: "Start team member" }).click();
    };
    await start("qa-dev");
    const fix = page.getByTestId("gate-fix");
    await expect.poll(() => fix.innerText(), { timeout: 15_000 }).toContain("enforces the phase gate: 1 spawn batch has started");
    await fix.getByRole("button", { name: "Run the phase gate…" }).click();
    await expect.poll(() => fix.getByRole("group", { name: "run the phase gate" }).innerText()).toContain("db-dev");
    await screenshot(page, "fix-gate");
    await fix.getByRole("button", { name: "Run the gate" }).click();
    await expect.poll(() => page.getByTestId("gate-report").innerText(), { timeout: 15_000 }).toContain("Phase 1 → Phase 2: passed");
    await fix.getByRole("button", { name: "Start qa-dev again" }).click();
    await waitForSession(sh.hub, "qa-dev", (s) => s.status === "idle", 60_000);

    await new Promise((r) => setTimeout(r, 5_500));
    await start("ops-dev");
    await expect.poll(() => fix.innerText(), { timeout: 15_000 }).toContain("2 spawn batches have started");
    await fix.getByRole("button", { name: "Turn enforcement off for default" }).click();
    await fix.getByRole("button", { name: "Start ops-dev again" }).click();
    await waitForSession(sh.hub, "ops-dev", (s) => ["idle", "queued", "starting"].includes(s.status), 60_000);
    expect((await api(sh.hub, "GET", "/api/teams/default/settings")).body.gateEnforcement).toBe("off");
    expect(await sideways(page)).toEqual([]);
  }, 120_000);

  it("tells a stale artifact's producer (Ctrl+Enter) and reopens the contract that made it", async () => {
    await ok(api(sh.hub, "POST", "/api/contracts", { id: "design-schema", title: "Design the schema", assignee: "db-dev" }));
    await ok(
      api(sh.hub, "POST", "/api/contracts", {
        id: "build-api",
        title: "Build the user API",
        assignee: "db-dev",
        expectedOutputs: [{ artifactType: "custom", artifactId: "user-api" }],
      }),
    );
    await ok(api(sh.hub, "POST", "/api/artifacts", { id: "user-schema", type: "custom", data: { fields: ["email"] } }));
    await ok(api(sh.hub, "POST", "/api/contracts/build-api/start", {}));
    // db-dev publishes the API from the schema, under its contract (which completes).
    await ok(
      api(sh.hub, "POST", "/api/sessions/db-dev/send", {
        message: `@mcp artifact_publish {"team":"default","id":"user-api","type":"custom","contractId":"build-api","derivedFrom":["user-schema@v1"],"data":{"paths":["/users"]}}\n@reply published`,
        wait: true,
      }),
    );
    expect((await api(sh.hub, "GET", "/api/contracts/build-api")).body.status).toBe("completed");
    await ok(api(sh.hub, "POST", "/api/artifacts", { id: "user-schema", type: "custom", data: { fields: ["email", "name"] } }));

    await nav("Artifacts").click();
    await page.getByRole("link", { name: "user-api", exact: true }).first().click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/artifacts/user-api");
    const fix = page.getByTestId("stale-fix");
    await fix.getByRole("button", { name: "Tell db-dev…" }).click();
    const box = fix.getByLabel("message to db-dev");
    expect(await box.inputValue()).toBe(
      "user-api@v1 is stale: user-schema@v1 was superseded by user-schema@v2. Please publish a new version from the current inputs.",
    );
    await screenshot(page, "fix-stale", { fullPage: false });
    await box.press("Control+Enter");
    await expect.poll(() => fix.innerText(), { timeout: 15_000 }).toContain("told db-dev");
    const told = (await api(sh.hub, "GET", "/api/chat/messages?member=db-dev")).body;
    expect(JSON.stringify(told)).toContain("user-api@v1 is stale");

    await fix.getByRole("button", { name: "Reopen build-api" }).click();
    await expect.poll(() => fix.innerText(), { timeout: 15_000 }).toMatch(/build-api is (pending|ready|in_progress) again/);
    expect((await api(sh.hub, "GET", "/api/contracts/build-api")).body.statusReason).toContain("its output user-api@v1 is stale");
  }, 120_000);

  it("says why a session gave its place to the admission queue, and resumes it", async () => {
    // Four live already (the hub's limit here): a fifth makes the idle one that waited longest yield.
    await ok(api(sh.hub, "POST", "/api/sessions", { name: "extra" }));
    const yielded = await waitForYield();
    await openSession(yielded);
    const note = page.getByTestId("session-yielded");
    await expect.poll(() => note.innerText(), { timeout: 15_000 }).toContain("stopped: gave its place to a waiting session");
    await screenshot(page, "fix-yielded", { fullPage: false });
    await nav("Sessions").click();
    await expect.poll(() => page.getByTestId(`yielded-${yielded}`).innerText(), { timeout: 15_000 }).toContain("gave its place");
    await openSession(yielded);
    await note.getByRole("button", { name: "Resume" }).click();
    await waitForSession(sh.hub, yielded, (s) => s.exitReason !== "admission:yielded", 60_000);
  }, 120_000);
});

/** The session that yielded its place (stopped with exitReason `admission:yielded`). */
async function waitForYield(): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const list = (await api(sh.hub, "GET", "/api/sessions")).body as Array<{ name: string; status: string; exitReason: string | null }>;
    const y = list.find((s) => s.status === "stopped" && s.exitReason === "admission:yielded");
    if (y) return y.name;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no session yielded its place");
}
