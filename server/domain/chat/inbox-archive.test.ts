import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreatePipelineInput } from "../../../lib/api/pipelines.ts";
import { chatKit } from "../../testing/chat-kit.ts";
import { sql } from "../../db/sql.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { createPipeline } from "../pipelines/pipelines.service.ts";
import { PipelineRunner } from "../pipelines/runner.ts";
import { OPERATOR } from "../principal.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("qa-dev");
});
afterEach(() => hub.close());

const counts = async () =>
  (await hub.db.read((s) =>
    s.get<{ total: number; live: number; archived: number; minLive: number }>(
      sql`SELECT COUNT(*) AS "total", SUM(CASE WHEN "archivedAt" IS NULL THEN 1 ELSE 0 END) AS "live", SUM(CASE WHEN "archivedAt" IS NULL THEN 0 ELSE 1 END) AS "archived", MIN(CASE WHEN "archivedAt" IS NULL THEN "id" END) AS "minLive" FROM "Message" WHERE "recipient" = 'qa-dev'`,
    ),
  ))!;

describe("inbox archive", () => {
  it("keeps the newest 1,000 of 1,500 messages live and archives the other 500, losing none", async () => {
    for (let i = 1; i <= 1500; i++) await c.send("operator", "qa-dev", `message ${i}`);
    expect(await counts()).toEqual({ total: 1500, live: 1000, archived: 500, minLive: 501 });
    expect(hub.events.filter((e) => e.type === "inbox.archived").map((e) => e.payload.archived)).toEqual(Array(500).fill(1));

    const live = await c.inbox("qa-dev", { limit: 500 });
    expect(live.messages[0]).toMatchObject({ id: 1500, text: "message 1500", archived: false });
    expect(live.unreadLeft).toBe(500);

    // includeArchived reaches the archived ones: unread first, then (all read now) page by page through the history.
    const unread = await c.inbox("qa-dev", { includeArchived: true, unreadOnly: true, limit: 500 });
    expect([unread.messages.length, unread.messages[0].id, unread.unreadLeft]).toEqual([500, 1000, 500]);
    expect((await c.inbox("qa-dev", { includeArchived: true, unreadOnly: true, limit: 500 })).messages.at(-1)).toMatchObject({
      id: 1,
      archived: true,
      unread: true,
    });
    const seen: number[] = [];
    let before: number | undefined;
    do {
      const page = await c.inbox("qa-dev", { includeArchived: true, limit: 400, before });
      expect(page.messages.every((m) => !m.unread)).toBe(true);
      seen.push(...page.messages.map((m) => m.id));
      before = page.nextBefore ?? undefined;
    } while (before !== undefined);
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => 1500 - i));
    const oldest = await c.inbox("qa-dev", { includeArchived: true, before: 2 });
    expect(oldest.messages).toMatchObject([{ id: 1, text: "message 1", archived: true, unread: false }]);
  });

  it("applies to pipeline deliveries too, with the team's own limit", async () => {
    await c.settings({ inboxLiveLimit: 10 });
    await createPipeline(
      hub,
      OPERATOR,
      CreatePipelineInput.parse({
        id: "ping",
        rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "qa-dev", message: "v${artifact.version}" } }],
      }),
    );
    for (let i = 0; i < 12; i++) await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: "doc", type: "custom", data: { i } }));
    await new PipelineRunner(hub).drain();
    expect(await counts()).toMatchObject({ total: 12, live: 10, archived: 2, minLive: 3 });
    expect((await c.inbox("qa-dev", { unreadOnly: true })).messages.map((m) => m.text).slice(-1)).toEqual(["v3"]);
  });
});
