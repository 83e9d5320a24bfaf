/**
 * The pipelines and snapshots pages in a real browser against a real hub: the rule editor
 * rejects an invalid condition inline and a dry run shows the action that would run; a snapshot
 * taken in the UI, work completed, the diff viewer highlighting the changed contracts and the new
 * versions, and a replay with an override from the UI after which the new versions appear.
 */
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS, launchBrowser, screenshot, waitLive } from "./helpers/browser.ts";
import { expectDbUnchanged, type DbSnapshot } from "./helpers/db-snapshot.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [hub, browser] = await Promise.all([startHub(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
});
afterAll(async () => {
  await browser?.close();
  await hub?.kill();
});

async function post(route: string, body: unknown) {
  const r = await api(hub, "POST", route, body);
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}
const publish = (id: string, type: string, data: unknown) => post("/api/artifacts", { id, type, data });
const errorOf = (scope: Locator, field: string) => scope.locator(`[data-field="${field}"] [data-testid="field-error"]`);
/** Full-page screenshots are taken from the top, so the sticky header sits where it belongs. */
async function shot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}
const confirm = (name: string) => page.locator("dialog[open]").getByRole("button", { name, exact: true }).click();
/** What a rollback or replay would write, for "the preview wrote nothing". */
const COORDINATION = ["Contract", "ContractDependency", "ContractWatch", "ArtifactVersion", "Pipeline", "Snapshot", "Member", "Message", "Event"];
const coordination = (db: DbSnapshot) => Object.fromEntries(COORDINATION.map((t) => [t, db[t]]));

describe("pipelines page", () => {
  it("rejects an invalid condition and template inline, and a dry run shows the action that would run", async () => {
    await page.goto(`${hub.url}/pipelines`);
    await waitLive(page);
    await expect.poll(() => page.getByTestId("pipelines").innerText()).toContain("No pipelines in this team");

    const editor = page.getByTestId("pipeline-editor");
    const rule = editor.getByTestId("rule-0");
    await editor.getByLabel("pipeline id").fill("ci-loop");
    await rule.getByLabel("artifact type", { exact: true }).fill("test-results");
    await rule.getByLabel("condition (optional)").fill("artifact.verison >= 2");
    await rule.getByLabel("then (action)").selectOption("reopen_contract");
    await rule.getByLabel("contract to reopen").fill("build-api");
    await rule.getByLabel("reason").fill("Tests failing: ${data.failed failures");
    await expect.poll(() => errorOf(rule, "rules[0].condition").innerText()).toBe("No such key: verison");
    await expect.poll(() => errorOf(rule, "rules[0].action.reason").innerText()).toContain("has an unclosed ${");
    await expect.poll(() => page.getByTestId("validation-status").innerText()).toBe("2 problems to fix");
    await shot("pipeline-editor-error");

    await rule.getByLabel("condition (optional)").fill("data.failed > 0");
    await rule.getByLabel("reason").fill("Tests failing: ${data.failed} failures");
    await expect.poll(() => page.getByTestId("validation-status").innerText()).toBe("ready to create");
    expect(await errorOf(rule, "rules[0].condition").count()).toBe(0);

    // A sample event, prefilled for the trigger and its filter.
    const dry = page.getByTestId("pipeline-dry-run");
    expect(JSON.parse(await dry.getByRole("textbox", { name: /sample event/ }).inputValue())).toMatchObject({
      type: "artifact.published",
      payload: { type: "test-results" },
      data: { failed: 3 },
    });
    await dry.getByRole("button", { name: "Dry run" }).click();
    const result = dry.getByTestId("dry-run-result");
    await expect.poll(() => result.innerText()).toContain("fires");
    expect(await result.innerText()).toContain("condition true");
    expect(await dry.getByTestId("dry-run-action").innerText()).toMatch(
      /Would run reopen_contract[\s\S]*contractId\s+build-api[\s\S]*reason\s+Tests failing: 3 failures/,
    );
    await shot("pipeline-dry-run");

    // A past event: passing tests, so the condition is false and nothing would run. Only events the trigger's
    // filter accepts are offered: a later artifact of another type is not.
    await publish("test-results-auth", "test-results", { total: 12, passed: 12, failed: 0 });
    await publish("release-notes", "custom", { text: "not test results" });
    await dry.getByLabel("a past event").check();
    const past = dry.getByLabel(/past event the trigger fires on/);
    await expect
      .poll(() => past.locator("option").allInnerTexts())
      .toContainEqual(expect.stringContaining("artifact.published test-results-auth@v1 by operator"));
    expect((await past.locator("option").allInnerTexts()).join("\n")).not.toContain("release-notes");
    await past.selectOption({ label: (await past.locator("option").allInnerTexts()).find((t) => t.includes("test-results-auth@v1"))! });
    await dry.getByRole("button", { name: "Dry run" }).click();
    await expect.poll(() => result.innerText()).toContain("condition false");
    expect(await result.innerText()).toContain("Nothing would run.");

    // The same draft as JSON, checked the same way; the issues are listed by field.
    await editor.getByRole("button", { name: "JSON" }).click();
    const json = editor.getByLabel("rules (JSON)");
    const rules = JSON.parse(await json.inputValue());
    expect(rules).toEqual([
      {
        trigger: { type: "artifact_published", artifactType: "test-results" },
        condition: "data.failed > 0",
        action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
      },
    ]);
    await json.fill(
      JSON.stringify(
        [...rules, { trigger: { type: "contract_failed", artifactType: "test-results" }, action: { type: "broadcast", message: "${contract.id} failed" } }],
        null,
        2,
      ),
    );
    await expect
      .poll(() => editor.locator('li[data-field="rules[1].trigger.artifactType"]').innerText())
      .toBe("rules[1].trigger.artifactType: does not apply to contract_failed triggers (they accept contractId, publisher)");
    await json.fill(JSON.stringify(rules, null, 2));
    await expect.poll(() => page.getByTestId("validation-status").innerText()).toBe("ready to create");
    await editor.getByRole("button", { name: "Form" }).click();

    await editor.getByRole("button", { name: "Create pipeline" }).click();
    await expect.poll(() => page.getByTestId("pipeline-created").innerText()).toContain("Created ci-loop");
    await expect.poll(() => page.getByTestId("pipeline-ci-loop").innerText()).toMatch(/ci-loop\s+active\s+1\s+none yet/);
    // The id is taken now: the editor says so before anyone presses Create.
    await editor.getByLabel("pipeline id").fill("ci-loop");
    await expect.poll(() => errorOf(editor, "id").innerText()).toBe("pipeline 'ci-loop' already exists in team 'default'");
    await shot("pipelines");
  });

  it("shows the execution log of a pipeline and follows it live", async () => {
    await post("/api/contracts", { id: "build-api", title: "Build the API", assignee: "api-dev", expectedOutputs: [{ artifactType: "api-contract" }] });
    await publish("api-contract-auth", "api-contract", { endpoints: [{ method: "POST", path: "/login" }] });
    await page.getByTestId("pipeline-ci-loop").getByRole("link", { name: "ci-loop" }).click();
    await expect.poll(() => page.getByTestId("execution-log").innerText()).toContain("Nothing has run yet");
    expect(await page.getByTestId("pipeline-rules").innerText()).toContain("data.failed > 0");

    await publish("test-results-auth", "test-results", { total: 12, passed: 10, failed: 2 });
    const entry = page.getByTestId("execution").first();
    await expect.poll(() => entry.getAttribute("data-outcome")).toBe("executed");
    expect(await entry.innerText()).toContain("reason: Tests failing: 2 failures");
    // The event names what it was about, linked to its page.
    expect(await entry.getByRole("link", { name: /^test-results-auth@v\d+$/ }).getAttribute("href")).toBe("/artifacts/test-results-auth");
    await publish("test-results-auth", "test-results", { total: 12, passed: 12, failed: 0 });
    await expect.poll(() => page.getByTestId("execution").first().getAttribute("data-outcome")).toBe("condition_false");
    // Sortable by any column, the page's count and time below.
    const outcomes = () => page.getByTestId("execution").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-outcome")));
    expect(await page.getByTestId("execution-log-total").innerText()).toMatch(/^2 executions on this page\s+\d/);
    const log = page.getByTestId("execution-log");
    await log.getByRole("button", { name: "Outcome", exact: true }).click();
    expect(await outcomes()).toEqual(["condition_false", "executed"]);
    await log.getByRole("button", { name: /^Outcome/ }).click();
    expect(await outcomes()).toEqual(["executed", "condition_false"]);
    expect(await log.locator("th", { has: page.getByRole("button", { name: /^Outcome/ }) }).getAttribute("aria-sort")).toBe("descending");
    await shot("pipeline-detail");
  });

  it("edits the rules on the pipeline page: problems shown as typed, a refusal writes nothing, a save replaces the rules", async () => {
    await page.getByTestId("edit-rules").click();
    const rules = page.getByTestId("pipeline-rules");
    const rule = rules.getByTestId("rule-0");
    const condition = rule.getByLabel("condition (optional)");
    expect(await condition.inputValue()).toBe("data.failed > 0");
    expect(await rules.getByLabel("pipeline id").count()).toBe(0);
    await condition.fill("data.failed > ");
    await expect.poll(() => errorOf(rule, "rules[0].condition").count()).toBe(1);
    await expect.poll(() => page.getByTestId("validation-status").innerText()).toBe("1 problem to fix");
    await shot("pipeline-edit-error");

    // The hub refuses the same rules at its door, naming the field, and the pipeline stays as it was.
    await expectDbUnchanged(
      hub.dbFile,
      async () => {
        const r = await api(hub, "PUT", "/api/pipelines/ci-loop", {
          rules: [{ trigger: { type: "artifact_published" }, condition: "data.failed > ", action: { type: "broadcast", message: "x" } }],
        });
        expect(r.status).toBe(400);
        expect(r.body.error.details.issues[0].field).toBe("rules[0].condition");
      },
      (s) => [s.Pipeline, s.Event],
    );

    await condition.fill("data.failed > 5");
    await expect.poll(() => page.getByTestId("validation-status").innerText()).toBe("ready to save: the new rules act on events from now on");
    await rules.getByRole("button", { name: "Save rules" }).click();
    await expect.poll(() => rules.getByTestId("edit-rules").count()).toBe(1);
    await expect.poll(() => rules.innerText()).toContain("data.failed > 5");
    expect(await rules.innerText()).not.toContain("data.failed > 0");
    const listed = await api(hub, "GET", "/api/pipelines/ci-loop");
    expect(listed.body).toMatchObject({ status: "active", createdBy: "operator", rules: [{ condition: "data.failed > 5" }] });
    await shot("pipeline-edited");
    await page.getByTestId("edit-rules").click();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("pipeline-edit-390");
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByTestId("theme").click();
    await page.getByTestId("theme").click();
    expect(await page.locator("html").getAttribute("data-theme")).toBe("dark");
    await shot("pipeline-edit-dark");
    await page.getByTestId("theme").click();
    await rules.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => rules.getByTestId("edit-rules").count()).toBe(1);
  });
});

describe("snapshots page", () => {
  const entity = (kind: string, id: string) => page.getByTestId("snapshot-diff").locator(`[data-kind="${kind}"][data-id="${id}"]`);
  const change = (kind: string, id: string) => entity(kind, id).getAttribute("data-change");

  it("takes a snapshot, and after work is done the diff highlights the changed contracts and the new versions", async () => {
    await post("/api/teams", { id: "auth" });
    await post("/api/contracts", {
      team: "auth",
      id: "setup-user-model",
      title: "Create User schema",
      assignee: "db-dev",
      expectedOutputs: [{ artifactType: "schema-change" }],
    });
    await post("/api/contracts", {
      team: "auth",
      id: "build-auth-api",
      title: "Build auth endpoints",
      assignee: "api-dev",
      inputs: { context: "Use REST" },
      dependencies: [{ type: "contract", contractId: "setup-user-model" }],
      expectedOutputs: [{ artifactType: "api-contract" }],
    });
    await post("/api/artifacts", { team: "auth", id: "design-notes", type: "custom", data: { decided: ["REST"] } });

    await page.goto(`${hub.url}/snapshots?team=auth`);
    await expect.poll(() => page.getByTestId("snapshots").innerText()).toContain("No snapshots of this team yet");
    await page.getByLabel("label", { exact: true }).fill("before the auth work");
    await page.getByRole("button", { name: "Take snapshot" }).click();
    await expect
      .poll(() => page.getByTestId("snapshots").innerText())
      .toMatch(/before the auth work[\s\S]*2 contracts · 1 artifacts · 0 pipelines · 0 members/);
    await expect
      .poll(() => page.getByTestId("diff-overview").innerText())
      .toBe("contracts: no differences · artifacts: no differences · pipelines: no differences · roster: no differences");
    await shot("snapshots");

    // The work, done elsewhere: the diff against the current state follows it live.
    await post("/api/artifacts", { team: "auth", id: "schema-user-model", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } });
    await post("/api/artifacts", {
      team: "auth",
      id: "api-contract-user-auth",
      type: "api-contract",
      derivedFrom: ["schema-user-model"],
      data: { endpoints: [{ method: "POST", path: "/login" }] },
    });
    await post("/api/artifacts", { team: "auth", id: "design-notes", type: "custom", data: { decided: ["REST", "JWT"] } });

    // The page refetches the diff (debounced) as events arrive, so it can show a state between the posts: after the first,
    // build-auth-api is already "changed" (pending → ready). Only the last post's change (design-notes v2) marks the diff
    // that includes all three; the details are read from that one.
    await expect
      .poll(() => page.getByTestId("diff-overview").innerText())
      .toBe("contracts: 2 changed · artifacts: 1 changed, 2 added · pipelines: no differences · roster: no differences");
    expect(await change("contracts", "build-auth-api")).toBe("changed");
    expect(await change("contracts", "setup-user-model")).toBe("changed");
    expect(await entity("contracts", "build-auth-api").locator("summary").innerText()).toContain("status: pending → completed");
    expect(await entity("contracts", "build-auth-api").locator('tr[data-path="status"]').getAttribute("data-change")).toBe("changed");
    expect(await change("artifacts", "api-contract-user-auth")).toBe("added");
    expect(await change("artifacts", "schema-user-model")).toBe("added");
    expect(await change("artifacts", "design-notes")).toBe("changed");
    expect(await entity("artifacts", "design-notes").locator("summary").innerText()).toContain("v1 → v2");
    // Its data, field by field: the element v2 added.
    const data = entity("artifacts", "design-notes").getByTestId("artifact-data-diff");
    await expect.poll(() => data.locator('tr[data-path="decided[1]"]').getAttribute("data-change")).toBe("added");
    expect(await data.locator('tr[data-path="decided[1]"]').innerText()).toContain('"JWT"');
    expect(await data.locator("tr[data-change]").count()).toBe(1);
    await shot("snapshot-diff");
    await page.getByTestId("theme").click();
    await page.getByTestId("theme").click();
    expect(await page.locator("html").getAttribute("data-theme")).toBe("dark");
    await shot("snapshot-diff-dark");
    await page.getByTestId("theme").click();
  });

  it("replays with an override from the UI, refusing bad overrides inline, and the new versions appear", async () => {
    const snapshot = (await page.getByTestId("snapshots").locator("tbody tr").first().getAttribute("data-testid"))!.replace(/^snapshot-/, "");
    await page.getByRole("button", { name: `replay ${snapshot}`, exact: true }).click();
    const editor = page.getByTestId("replay-editor");
    const overrides = editor.getByLabel("overrides (JSON)");
    await expect
      .poll(async () => JSON.parse(await overrides.inputValue()))
      .toEqual({
        "build-auth-api": { inputs: { context: "Use REST" }, assignee: "api-dev", title: "Build auth endpoints" },
        "setup-user-model": { inputs: {}, assignee: "db-dev", title: "Create User schema" },
      });

    // Checked as typed with the hub's own schema …
    await overrides.fill(JSON.stringify({ "build-auth-api": { owner: "qa-dev" } }));
    await expect
      .poll(() => editor.getByTestId("field-error").allInnerTexts())
      .toContain("overrides.build-auth-api: only inputs, assignee and title can be overridden (got owner)");
    // … and what only the hub knows comes back from it, by field: the preview refuses it before any dialog opens.
    await overrides.fill(JSON.stringify({ "write-docs": { title: "Docs" } }));
    await editor.getByRole("button", { name: `Replay ${snapshot}` }).click();
    await expect.poll(() => editor.getByTestId("field-error").innerText()).toBe(`overrides.write-docs: contract 'write-docs' is not in snapshot '${snapshot}'`);
    expect(await page.locator("dialog[open]").count()).toBe(0);

    // Work added since the snapshot: the replay will remove it, and the preview says so before anything happens.
    await post("/api/contracts", { team: "auth", id: "write-auth-docs", title: "Document the auth API", assignee: "docs-dev" });
    await post("/api/pipelines", {
      team: "auth",
      id: "notify-qa",
      rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "qa-dev", message: "new ${artifact.id}" } }],
    });
    await overrides.fill(
      JSON.stringify({ "build-auth-api": { inputs: { context: "Use GraphQL instead of REST" }, assignee: "api-dev", title: "Build auth endpoints" } }, null, 2),
    );
    await expect.poll(() => editor.getByRole("status").innerText()).toBe("1 contract overridden");
    // Asking writes nothing.
    const preview = page.getByTestId("replay-preview");
    await expectDbUnchanged(
      hub.dbFile,
      async () => {
        await editor.getByRole("button", { name: `Replay ${snapshot}` }).click();
        await expect.poll(() => preview.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
      },
      coordination,
    );
    const facts = preview.getByTestId("rewind-facts-preview");
    expect(await facts.getByTestId("facts-rerun").innerText()).toMatch(/^1 contract will re-run/);
    expect(await facts.getByTestId("rerun-build-auth-api").innerText()).toMatch(/build-auth-api\s+api-dev\s+completed\s+→\s+pending\s+named in the overrides/);
    expect(await facts.getByTestId("facts-rolled-back").innerText()).toBe(
      "3 versions will be rolled back api-contract-user-auth@v1, design-notes@v2, schema-user-model@v1",
    );
    expect(await facts.getByTestId("facts-removed").innerText()).toBe(
      "1 contract write-auth-docs and 1 pipeline notify-qa will be removed (not in the snapshot)",
    );
    expect(await facts.getByTestId("moved-build-auth-api").innerText()).toBe("build-auth-api completed → pending");
    await shot("snapshot-replay-preview");
    // The theme follows the system here ("auto"); the open dialog keeps the theme button out of reach.
    await page.emulateMedia({ colorScheme: "dark" });
    await shot("snapshot-replay-preview-dark");
    await page.emulateMedia({ colorScheme: "light" });
    // On a phone: the dialog itself, as it fills the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await preview.screenshot({ path: path.join(SCREENSHOTS, "snapshot-replay-preview-390.png") });
    await page.setViewportSize({ width: 1366, height: 768 });
    await confirm(`Replay ${snapshot}`);

    const result = page.getByTestId("rewind-result");
    await expect.poll(() => result.innerText()).toContain(`Replayed ${snapshot}`);
    expect(await result.innerText()).toContain("3 versions rolled back");
    for (const ref of ["api-contract-user-auth@v1", "design-notes@v2", "schema-user-model@v1"]) expect(await result.innerText()).toContain(ref);
    expect(await result.getByTestId("moved-build-auth-api").innerText()).toBe("build-auth-api completed → pending");
    expect(await result.getByTestId("facts-removed").innerText()).toBe("1 contract write-auth-docs and 1 pipeline notify-qa removed (not in the snapshot)");
    expect(await result.getByTestId("rerun-build-auth-api").innerText()).toMatch(/completed\s+→\s+pending/);
    expect(await result.getByTestId("overridden").locator('tr[data-path="inputs.context"]').innerText()).toContain("Use GraphQL instead of REST");

    // The diff now sets the run before the replay against the live state; the replayed run's versions appear in it.
    const auto = (await result.locator("code").nth(1).innerText()).trim();
    expect(auto).toMatch(/^pre-replay-/);
    await expect.poll(() => page.getByTestId("snapshot-diff").getByLabel("A (before)").inputValue()).toBe(auto);
    await expect.poll(() => entity("artifacts", "schema-user-model").locator("summary").innerText()).toContain("v1 → rolled back");
    expect(await entity("contracts", "build-auth-api").locator("summary").innerText()).toContain("inputs");

    await post("/api/artifacts", {
      team: "auth",
      id: "schema-user-model",
      type: "schema-change",
      data: { models: [{ name: "User", fields: ["email", "phone"] }] },
    });
    await post("/api/artifacts", {
      team: "auth",
      id: "api-contract-user-auth",
      type: "api-contract",
      derivedFrom: ["schema-user-model"],
      data: { endpoints: [{ method: "POST", path: "/graphql" }] },
    });
    await expect.poll(() => entity("artifacts", "api-contract-user-auth").locator("summary").innerText()).toContain("v1 → v2");
    expect(await change("artifacts", "api-contract-user-auth")).toBe("changed");
    expect(await entity("artifacts", "schema-user-model").locator("summary").innerText()).toContain("v1 → v2");
    expect(await entity("contracts", "build-auth-api").locator('tr[data-path="inputs.context"]').innerText()).toMatch(
      /Use REST[\s\S]*Use GraphQL instead of REST/,
    );
    await shot("snapshot-replay");

    // Undo the replay: roll back to the snapshot it saved first, after reading its preview.
    await page.getByTestId(`snapshot-${auto}`).getByRole("button", { name: "Rollback" }).click();
    const undo = page.getByTestId(`snapshot-${auto}`).getByTestId("rollback-preview");
    await expect.poll(() => undo.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await undo.getByTestId("facts-rolled-back").innerText()).toBe("2 versions will be rolled back api-contract-user-auth@v2, schema-user-model@v2");
    expect(await undo.getByTestId("facts-restored").innerText()).toBe("1 contract write-auth-docs and 1 pipeline notify-qa will be brought back");
    expect(await undo.getByTestId("facts-reactivated").innerText()).toBe(
      "3 versions will be active again api-contract-user-auth@v1, design-notes@v2, schema-user-model@v1",
    );
    expect(await undo.getByTestId("facts-rerun").count()).toBe(0);
    await shot("snapshot-rollback-preview");
    await confirm("Rollback");
    await expect.poll(() => page.getByTestId("rewind-result").innerText()).toContain(`Rolled back to ${auto}`);
    const undone = await page.getByTestId("rewind-result").innerText();
    for (const ref of ["api-contract-user-auth@v2", "schema-user-model@v2"]) expect(undone).toContain(ref);
    expect(undone).toMatch(/3 versions active again/);
    await expect.poll(() => page.getByTestId("snapshot-diff").getByLabel("A (before)").inputValue()).toMatch(/^pre-rollback-/);
  });
});
