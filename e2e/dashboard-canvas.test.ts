/**
 * The canvas in a real browser, against a real hub whose team member runs the real claude CLI
 * (fake Messages API): contracts made by dragging roster members onto the canvas, dependencies
 * drawn by dragging between handles (and a cycle refused where the person sees it), a session's
 * publish moving the nodes without a reload or a viewport jump, and the side panel's actions. The 2,000-node budget,
 * which needs a quiet machine, is measured in e2e/dashboard-canvas-2000.test.ts.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { viewportOf, viewportSettled } from "./helpers/canvas-probe.ts";
import { launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { api, cli } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sh, browser] = await Promise.all([startSessionHub(directiveModel()), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
});
afterAll(async () => {
  await browser?.close();
  await sh?.close();
});

const node = (key: string) => page.locator(`.react-flow__node[data-id="${key}"]`);
const stateOf = (key: string) => node(key).locator("[data-status]").getAttribute("data-status");
const edge = (id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`);

async function centre(l: Locator): Promise<{ x: number; y: number }> {
  const box = (await l.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A person's drag from one handle to another, in small steps as a hand would move. */
async function dragHandle(from: Locator, to: Locator) {
  await viewportSettled(page);
  const [a, b] = [await centre(from), await centre(to)];
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 8 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

/** Drags a roster member onto the canvas and fills the form it opens. */
async function createByDrop(member: string, fields: Record<string, string>) {
  await page.getByTestId(`member-${member}`).dragTo(page.getByTestId("canvas"), { targetPosition: { x: 300, y: 200 } });
  const form = page.getByTestId("new-contract");
  await expect.poll(() => form.locator('input[name="assignee"]').inputValue()).toBe(member);
  for (const [name, value] of Object.entries(fields)) {
    const input = form.locator(`[name="${name}"]`);
    if ((await input.evaluate((e) => e.tagName)) === "SELECT") await input.selectOption(value);
    else await input.fill(value);
  }
  await form.getByRole("button", { name: "Create contract" }).click();
}

const TEAM = "canvas";

describe("the canvas", () => {
  it("makes contracts from dragged members, links them, refuses a cycle visibly, and follows a session's publish without a reload", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name: "db-dev", role: "database" })).status).toBe(201);
    expect(cli(sh.hub.dataDir, ["team-member", "api-dev", "--role", "backend", "--team", TEAM]).code).toBe(0);
    await waitForSession(sh.hub, "db-dev", (s) => s.status === "idle");

    await page.goto(`${sh.hub.url}/canvas?team=${TEAM}`);
    await waitLive(page);
    await expect.poll(() => page.getByTestId("canvas-empty").innerText()).toContain("Nothing in team canvas yet");
    await expect.poll(() => page.getByTestId("canvas-roster").innerText()).toMatch(/api-dev[\s\S]*backend[\s\S]*db-dev[\s\S]*database/);
    const navigations: string[] = [];
    page.on("framenavigated", (f) => f === page.mainFrame() && navigations.push(f.url()));

    // A bad id is refused by the hub and shown under the field; fixing it creates the contract.
    await createByDrop("db-dev", { id: "Setup Schema", title: "Create the user schema", outputType: "schema-change", outputId: "schema-user" });
    const form = page.getByTestId("new-contract");
    await expect.poll(() => form.innerText()).toContain("id: must be lowercase letters, digits");
    expect(await form.locator('input[name="id"]').getAttribute("aria-invalid")).toBe("true");
    await form.locator('input[name="id"]').fill("setup-schema");
    await form.getByRole("button", { name: "Create contract" }).click();
    await expect.poll(() => stateOf("contract:setup-schema")).toBe("ready");
    await expect.poll(() => stateOf("artifact:schema-user")).toBe("unpublished");
    await expect.poll(() => form.isVisible()).toBe(false);

    await createByDrop("api-dev", { id: "build-api", title: "Build the user API", outputType: "api-contract" });
    await expect.poll(() => stateOf("contract:build-api")).toBe("ready");
    await expect.poll(() => page.getByTestId("canvas-roster").innerText()).toMatch(/api-dev[\s\S]*1 contract[\s\S]*db-dev[\s\S]*1 contract/);

    // setup-schema → build-api: build-api now waits for setup-schema.
    await page.getByTestId("fit-view").click();
    await dragHandle(node("contract:setup-schema").locator(".react-flow__handle-bottom"), node("contract:build-api").locator(".react-flow__handle-top"));
    await expect.poll(() => page.getByTestId("canvas-notice").innerText()).toContain("build-api now depends on contract setup-schema");
    await expect.poll(() => edge("depends_on:contract:setup-schema->contract:build-api").count()).toBe(1);
    await expect.poll(() => stateOf("contract:build-api")).toBe("pending");

    // Back the other way would close a cycle: refused, in words, and no edge is drawn.
    await dragHandle(node("contract:build-api").locator(".react-flow__handle-bottom"), node("contract:setup-schema").locator(".react-flow__handle-top"));
    await expect.poll(() => page.getByTestId("canvas-error").innerText()).toContain("would create a dependency cycle: setup-schema → build-api → setup-schema");
    expect(await page.getByTestId("canvas-error").getAttribute("role")).toBe("alert");
    await expect.poll(() => edge("depends_on:contract:build-api->contract:setup-schema").count()).toBe(0);
    expect((await api(sh.hub, "GET", `/api/contracts/setup-schema?team=${TEAM}`)).body.dependencies).toEqual([]);
    // Drawing the link left both nodes in place, side by side; tidying lays the graph out with it.
    const flowY = async (key: string) => Number(/translate\([-\d.]+px, ?([-\d.]+)px\)/.exec((await node(key).getAttribute("style")) ?? "")?.[1]);
    expect(await flowY("contract:build-api")).toBe(await flowY("contract:setup-schema"));
    await page.getByTestId("tidy-layout").click();
    await expect.poll(async () => (await flowY("contract:build-api")) > (await flowY("contract:setup-schema"))).toBe(true);
    await screenshot(page, "canvas");

    // The person moves the view; live updates must leave it where they put it.
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    await page.mouse.move(pane.x + 30, pane.y + pane.height - 30);
    await page.mouse.down();
    await page.mouse.move(pane.x + 90, pane.y + pane.height - 60, { steps: 5 });
    await page.mouse.up();
    const moved = await viewportOf(page);

    // The member's session publishes the schema through MCP: setup-schema completes, build-api is unblocked.
    const sent = await api(sh.hub, "POST", "/api/sessions/db-dev/send", {
      message: `@mcp artifact_publish {"team":"${TEAM}","id":"schema-user","type":"schema-change","data":{"models":[{"name":"User","fields":["email"]}]}}`,
      wait: true,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expect.poll(() => stateOf("contract:setup-schema"), { timeout: 15_000 }).toBe("completed");
    await expect.poll(() => stateOf("contract:build-api")).toBe("ready");
    await expect.poll(() => stateOf("artifact:schema-user")).toBe("active");
    expect(await node("artifact:schema-user").getByTestId("version").innerText()).toBe("v1");
    expect(await viewportOf(page)).toBe(moved);
    expect(navigations).toEqual([]);
    const published = (await api(sh.hub, "GET", `/api/artifacts/schema-user/history?team=${TEAM}`)).body.versions[0];
    expect([published.publisher, published.sessionId]).toEqual(["db-dev", "db-dev"]);

    // The side panel: details of the unblocked contract, and an action through the hub.
    await page.getByTestId("fit-view").click();
    await node("contract:build-api").click();
    const panel = page.getByTestId("canvas-panel");
    await expect.poll(() => panel.innerText()).toMatch(/Build the user API[\s\S]*ready[\s\S]*Assignee\s+api-dev[\s\S]*contract setup-schema/);
    await panel.getByRole("button", { name: "Start" }).click();
    await expect.poll(() => stateOf("contract:build-api")).toBe("in_progress");
    await expect.poll(() => panel.getByRole("button", { name: "Start" }).isDisabled()).toBe(true);
    await screenshot(page, "canvas-panel");

    // Looking at an artifact here is not a read (starting build-api was: it pinned schema-user@v1).
    const readers = async () => (await api(sh.hub, "GET", `/api/artifacts/schema-user/readers?team=${TEAM}`)).body.reads;
    const readsBefore = await readers();
    await node("artifact:schema-user").click();
    await expect
      .poll(() => page.getByTestId("artifact-panel").innerText())
      .toMatch(/schema-user[\s\S]*v1[\s\S]*schema-change[\s\S]*Publisher\s+db-dev[\s\S]*"User"/);
    expect(await page.getByTestId("artifact-page-link").getAttribute("href")).toBe(`/artifacts/schema-user?team=${TEAM}`);
    expect(await readers()).toEqual(readsBefore);
  }, 180_000);

  it("removes a dependency, fails with a reason and reopens from the panel, and filters by state and type", async () => {
    const team = "panel";
    await api(sh.hub, "POST", `/api/contracts?team=${team}`, { id: "first", title: "First", assignee: "ann" });
    await api(sh.hub, "POST", `/api/contracts?team=${team}`, {
      id: "second",
      title: "Second",
      assignee: "ben",
      dependencies: [
        { type: "contract", contractId: "first" },
        { type: "artifact", artifactId: "notes" },
      ],
    });
    await api(sh.hub, "POST", `/api/artifacts?team=${team}`, { id: "readme", type: "custom", data: { text: "hello" } });
    // Opened from a link that names a contract (as the overview's failed contracts do): its panel is open.
    await page.goto(`${sh.hub.url}/canvas?team=${team}&contract=second`);
    await expect.poll(() => stateOf("contract:second")).toBe("pending");
    const panel = page.getByTestId("canvas-panel");
    await expect.poll(() => panel.innerText()).toMatch(/Second[\s\S]*pending[\s\S]*Assignee\s+ben/);
    await panel.getByRole("button", { name: "remove dependency on contract first" }).click();
    await expect.poll(() => edge("depends_on:contract:first->contract:second").count()).toBe(0);
    await panel.getByRole("button", { name: "remove dependency on artifact notes" }).click();
    await expect.poll(() => stateOf("contract:second")).toBe("ready");
    await expect.poll(() => panel.innerText()).toContain("None: it was ready as soon as it was created.");

    await panel.getByRole("button", { name: "Fail" }).click();
    await expect.poll(() => panel.getByTestId("panel-error").innerText()).toContain("reason: must not be empty");
    expect(await stateOf("contract:second")).toBe("ready");
    await panel.getByLabel("Reason (needed to fail or force; optional to reopen)").fill("wrong assignee");
    await panel.getByRole("button", { name: "Fail" }).click();
    await expect.poll(() => stateOf("contract:second")).toBe("failed");
    await expect.poll(() => panel.getByTestId("status-reason").innerText()).toBe("wrong assignee");
    await panel.getByRole("button", { name: "Reopen" }).click();
    await expect.poll(() => stateOf("contract:second")).toBe("ready");

    // xyflow does not render hidden nodes at all.
    const visible = async () => (await page.locator(".react-flow__node").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")))).sort();
    const filters = page.getByTestId("canvas-filters");
    await expect.poll(visible).toEqual(["artifact:readme", "contract:first", "contract:second"]);
    await filters.getByLabel(/^ready/).uncheck();
    await expect.poll(visible).toEqual(["artifact:readme"]);
    await filters.getByLabel(/^custom/).uncheck();
    await expect.poll(visible).toEqual([]);
    await filters.getByLabel(/^contracts/).uncheck();
    expect(await filters.getByLabel(/^ready/).isDisabled()).toBe(true);
    await filters.getByLabel(/^contracts/).check();
    await filters.getByLabel(/^ready/).check();
    await filters.getByLabel(/^custom/).check();
    await expect.poll(visible).toEqual(["artifact:readme", "contract:first", "contract:second"]);
  }, 120_000);
});
