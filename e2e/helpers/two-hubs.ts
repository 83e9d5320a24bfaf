/**
 * Two hub processes on one database (docs/hubs.md), with the real CLI, as a suite each database runs
 * (e2e/hubs.test.ts on SQLite, e2e/hubs-postgres.test.ts on PostgreSQL): a session spawned on hub A answers a message
 * sent through hub B; each hub's /ws carries the other's events in commit order; a pipeline rule fires once per event
 * whichever hub committed it; 8 processes × 250 publishes over both hubs give versions 1..2000; after kill -9 of A, B
 * declares it lost, its session is `interrupted`, B resumes it with the conversation intact, and a deadline that fell
 * due while A was dead fires exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TeamHub, type HubEvent } from "teamhub";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { startReceiver } from "../../server/testing/webhook-receiver.ts";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { allPrompts } from "../fake-anthropic/request.ts";
import { startFakeApi, type FakeApi } from "../fake-anthropic/server.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "./claude.ts";
import { api, startHub, tempDataDir, type HubProcess } from "./hub-process.ts";
import { publisher } from "./publisher.ts";
import { waitForSession } from "./session-hub.ts";

/** The database both hubs share: made in beforeAll, its URL for DATABASE_URL, raw reads for the checks. */
export type SharedDatabase = {
  name: string;
  open(): Promise<void>;
  url(): string;
  query<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
};

export function twoHubsSuite(database: SharedDatabase) {
  // Long enough that a hub slowed by a loaded machine (2 cores shared by the suite) is never taken for dead.
  const LOST_AFTER_MS = 4000;
  let fake: FakeApi;
  let a: HubProcess;
  let b: HubProcess;

  beforeAll(async () => {
    fake = await startFakeApi(
      directiveModel((req) => ({
        text: `seen: ${allPrompts(req)
          .filter((p) => !p.startsWith("@"))
          .join(" | ")}`,
      })),
    );
    const work = tempDir("work");
    await database.open();
    const env = (id: string) => ({
      CLAUDE_BIN,
      TEAMHUB_CLAUDE_ENV: JSON.stringify(isolatedClaudeVars(fake.url)),
      TEAMHUB_WORK_DIR: work,
      DATABASE_URL: database.url(),
      TEAMHUB_HUB_ID: id,
      TEAMHUB_HEARTBEAT_MS: "250",
      TEAMHUB_HUB_LOST_MS: String(LOST_AFTER_MS),
    });
    a = await startHub(tempDataDir("hub-a"), env("hub-a"));
    b = await startHub(tempDataDir("hub-b"), env("hub-b"));
  }, 240_000);
  afterAll(async () => {
    await a?.kill();
    await b?.kill();
    await fake?.close();
    await database.close();
  });

  const hubs = async (h: HubProcess) => (await api(h, "GET", "/api/hubs")).body as Array<{ id: string; status: string; self: boolean; liveSessions: number }>;

  describe(`two hubs on one ${database.name} database`, () => {
    it("route a message to the hub running the session, carry each other's events, and fire a rule once per event", async () => {
      expect((await hubs(a)).map((h) => [h.id, h.status, h.self])).toEqual([
        ["hub-a", "live", true],
        ["hub-b", "live", false],
      ]);

      expect((await api(a, "POST", "/api/sessions", { name: "worker", prompt: "hello" })).status).toBe(201);
      const first = await waitForSession(a, "worker", (s) => s.status === "idle" && s.interactions === 1, 60_000);
      expect(first.hub).toBe("hub-a");

      // Sent through B, answered by A's process.
      const r = (await api(b, "POST", "/api/sessions/worker/send", { message: "through b", wait: true })).body;
      expect(r.completed).toBe(true);
      expect(r.interaction.response).toBe("seen: hello | through b");
      expect((await hubs(b)).find((h) => h.id === "hub-a")?.liveSessions).toBe(1);

      // B's commits reach A's /ws in commit order, A's reach B's.
      const team = "relay";
      const onA = new TeamHub({ url: a.url, token: "", team });
      const onB = new TeamHub({ url: b.url, token: "", team });
      await onA.teams.create({ id: team });
      await onA.roster.upsert({ name: "alice" });
      await onA.pipelines.create({
        id: "notify",
        rules: [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "published ${artifact.id}" } }],
      });
      const stream = onA.subscribe({ types: ["artifact.published"] });
      await stream.ready;
      const seen: HubEvent[] = [];
      const reading = (async () => {
        for await (const e of stream) {
          seen.push(e);
          if (seen.length === 10) break;
        }
      })();
      for (let i = 0; i < 10; i++) await (i % 2 ? onA : onB).artifacts.publish({ id: `doc-${i}`, type: "custom", data: { i } });
      await reading;
      expect(seen.map((e) => (e.type === "artifact.published" ? e.payload.artifactId : null))).toEqual(Array.from({ length: 10 }, (_, i) => `doc-${i}`));
      expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort((x, y) => x - y));

      // Both hubs run the pipeline runner; each (rule, event) is executed once.
      const executions = async () => database.query<{ eventId: number }>(`SELECT "eventId" FROM "PipelineExecution"`);
      await expect.poll(async () => (await executions()).length, { timeout: 30_000 }).toBe(10);
      expect(new Set((await executions()).map((x) => x.eventId)).size).toBe(10);
      const texts = (await database.query<{ text: string }>(`SELECT "text" FROM "Message" WHERE "recipient" = 'alice'`)).map((m) => m.text);
      expect(texts.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `published doc-${i}`).sort());
    }, 180_000);

    it("deliver each event a webhook listens to once, whichever hub committed it, both hubs dispatching", async () => {
      const receiver = await startReceiver();
      try {
        const onA = new TeamHub({ url: a.url, token: "", team: "hooks" });
        const onB = new TeamHub({ url: b.url, token: "", team: "hooks" });
        await onA.webhooks.create({ id: "ops", url: receiver.url, events: ["contract.status_changed:failed"] });
        for (let i = 0; i < 20; i++) {
          const via = i % 2 ? onA : onB;
          await via.contracts.create({ id: `c${i}`, title: "Work", assignee: "dev" });
          await via.contracts.fail({ id: `c${i}`, reason: `failed through hub ${i % 2 ? "a" : "b"}` });
        }
        const delivered = async () => (await onB.webhooks.deliveries({ id: "ops", status: "delivered" })).deliveries.length;
        await expect.poll(delivered, { timeout: 60_000 }).toBe(20);
        const events = receiver.received.map((r) => JSON.parse(r.body).event.payload.id as string);
        expect(events.toSorted()).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
        expect(new Set(receiver.received.map((r) => r.headers["x-teamhub-delivery"])).size).toBe(20);
      } finally {
        await receiver.close();
      }
    }, 120_000);

    it("8 processes × 250 publishes spread over both hubs → versions exactly 1..2000; a read through one hub sees the other's commit", async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => publisher((i % 2 ? a : b).url, "contended", 250)));
      expect(results.flatMap((r) => r.failures)).toEqual([]);
      const acknowledged = results.flatMap((r) => r.versions).sort((x, y) => x - y);
      expect(acknowledged).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
      const history = (await api(a, "GET", "/api/artifacts/contended/history")).body;
      expect(history.versions.map((v: { version: number }) => v.version).sort((x: number, y: number) => x - y)).toEqual(acknowledged);

      const onA = new TeamHub({ url: a.url, token: "", team: "reads" });
      const onB = new TeamHub({ url: b.url, token: "", team: "reads" });
      await onB.teams.create({ id: "reads" });
      await onB.contracts.create({ id: "ship", title: "ship it", assignee: "dev" });
      await onB.contracts.complete({ id: "ship", force: true, reason: "done through hub B" });
      expect((await onA.contracts.get({ id: "ship" })).status).toBe("completed");
    }, 180_000);

    it("after kill -9 of a hub: its session interrupted, resumed on the other hub intact, and a deadline due meanwhile fired once", async () => {
      const ops = new TeamHub({ url: b.url, token: "", team: "deadlines" });
      await ops.teams.create({ id: "deadlines" });
      await ops.contracts.create({ id: "due-soon", title: "due while hub A is dead", assignee: "nobody", timeoutMs: 6000 });
      const before = (await api(b, "GET", "/api/sessions/worker/transcript?limit=500")).body.entries;
      const t0 = Date.now();

      await a.kill("SIGKILL");
      const lost = await waitForSession(b, "worker", (s) => s.status === "interrupted", 30_000);
      expect(lost).toMatchObject({ exitReason: "hub_lost", pid: null, hub: "hub-a" });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(LOST_AFTER_MS - 300);
      expect((await hubs(b)).map((h) => [h.id, h.status])).toEqual([
        ["hub-a", "lost"],
        ["hub-b", "live"],
      ]);

      // B resumes the conversation from the files A's process left (same machine: A's data dir is reachable).
      const r = (await api(b, "POST", "/api/sessions/worker/send", { message: "after the loss", wait: true })).body;
      expect(r.completed).toBe(true);
      expect(r.interaction.response).toBe("seen: hello | through b | after the loss");
      const after = (await api(b, "GET", "/api/sessions/worker")).body;
      expect(after).toMatchObject({ hub: "hub-b", status: "idle" });
      const entries = (await api(b, "GET", "/api/sessions/worker/transcript?limit=500")).body.entries;
      expect(entries.slice(0, before.length)).toEqual(before);

      await expect.poll(async () => (await ops.contracts.get({ id: "due-soon" })).status, { timeout: 30_000 }).toBe("failed");
      const timeouts = (
        await database.query<{ n: number }>(
          `SELECT COUNT(*) AS n FROM "Event" WHERE "type" = 'contract.status_changed' AND "subject" = 'contract:due-soon' AND "payload" LIKE '%"to":"failed"%'`,
        )
      )[0].n;
      expect(timeouts).toBe(1);
    }, 180_000);

    it("shows on the dashboard which hub runs each session and the hubs' health", async () => {
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        await page.goto(`${b.url}/settings`);
        const row = (id: string) => page.getByTestId(`hub-${id}`);
        await expect.poll(() => row("hub-a").innerText(), { timeout: 30_000 }).toContain("lost");
        expect(await row("hub-b").innerText()).toMatch(/hub-b \(this hub\)\s+live/);
        await page.getByTestId("hubs-health").scrollIntoViewIfNeeded();
        await screenshot(page, `hubs-health-${database.name.toLowerCase()}`);
        // The mark's space does not break (\u00a0).
        const shown = async (testId: string) => (await page.getByTestId(testId).innerText()).replace(/\u00a0/g, " ");
        await page.goto(`${b.url}/sessions/worker`);
        await expect.poll(() => shown("session-hub"), { timeout: 30_000 }).toBe("hub-b (this hub)");
        await page.goto(`${b.url}/sessions`);
        await expect.poll(() => shown("hub-of-worker"), { timeout: 30_000 }).toBe("hub-b (this hub)");

        await page.evaluate(() => window.localStorage.setItem("teamhub.theme", "dark"));
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${b.url}/settings`);
        await expect.poll(() => row("hub-a").innerText(), { timeout: 30_000 }).toContain("lost");
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        await screenshot(page, `hubs-health-${database.name.toLowerCase()}-390-dark`);
      } finally {
        await browser.close();
      }
    }, 120_000);
  });
}
