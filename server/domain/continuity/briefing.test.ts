import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatKit } from "../../testing/chat-kit.ts";
import { continuityKit, member, type ContinuityKit } from "../../testing/continuity-kit.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sql } from "../../db/sql.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { BRIEF_ITEMS, BRIEF_MESSAGES } from "./briefing-queries.ts";

let hub: TempHub;
let k: Kit;
let c: ContinuityKit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
  c = continuityKit(hub);
});
afterEach(() => hub.close());

const dev = member("api-dev");
const qa = member("qa-dev");

describe("a first-time overview (no checkpoint yet)", () => {
  it("shows open contracts, newer versions of what was read, unread messages, recent decisions and all patterns", async () => {
    await k.create({ id: "build-api", assignee: "api-dev", title: "Build the API" });
    await k.create({ id: "auto", assignee: "api-dev", expectedOutputs: [{ artifactType: "custom", artifactId: "out" }] });
    await k.publish({ id: "out" });
    await k.create({ id: "write-tests", assignee: "qa-dev" });
    await k.publish({ id: "spec", data: { v: 1 } });
    await k.read("spec", undefined, dev);
    await k.publish({ id: "spec", data: { v: 2 }, summary: "adds /logout" });
    // The notices about its contracts (created, auto-completed) are read; the question is not.
    expect((await chatKit(hub).inbox("api-dev")).messages.map((m) => m.kind)).toEqual(["contract", "contract", "contract"]);
    await c.send("qa-dev", "api-dev", "Can you add /logout?");
    await c.decide({ title: "Use JWT" });
    await c.register({ name: "error-envelope", description: "Errors are {error}" });

    const b = await c.brief(dev);
    expect(b.since).toBeNull();
    expect(b.contracts).toEqual({ items: [{ id: "build-api", title: "Build the API", status: "ready", assignee: "api-dev", changes: [] }], total: 1 });
    expect(b.artifacts).toEqual({
      items: [
        {
          id: "spec",
          type: "custom",
          name: "spec",
          readVersion: 1,
          currentVersion: 2,
          publisher: "operator",
          summary: "adds /logout",
          publishedAt: expect.any(Date),
        },
      ],
      total: 1,
    });
    expect(b.messages).toEqual({ unread: 1, first: [{ id: 5, sender: "qa-dev", kind: "dm", text: "Can you add /logout?", at: expect.any(Date) }] });
    expect(b.decisions.items.map((d) => d.title)).toEqual(["Use JWT"]);
    expect(b.patterns.items.map((p) => p.name)).toEqual(["error-envelope"]);
    expect(b.git).toBeNull();
    expect(b.markdown).toBe(
      [
        "# Team Hub briefing for api-dev (team default)",
        "",
        "No checkpoint of yours yet: this is an overview of where things stand.",
        "",
        "## Your open contracts (1)",
        '- build-api "Build the API": now ready',
        "",
        "## Artifacts you read that have newer versions (1)",
        "- spec (custom): you read v1, current is v2 by operator — adds /logout",
        "",
        "## Unread messages (1)",
        `- from qa-dev (dm, ${b.messages.first[0].at.toISOString().replace(/\.\d+Z$/, "Z")}): Can you add /logout?`,
        "",
        "## Recent decisions (1)",
        "- #1 Use JWT (operator): Do it this way",
        "",
        "## Project patterns (1)",
        "- error-envelope: Errors are {error}",
      ].join("\n"),
    );
  });

  it("says so when there is nothing at all", async () => {
    expect((await c.brief(dev)).markdown).toContain("Nothing assigned to you, no unread messages, no decisions, patterns or team knowledge yet.");
  });
});

describe("contracts since the last checkpoint", () => {
  it("reports creations, status changes and reassignments of the principal's contracts, with their status now", async () => {
    await k.create({ id: "old", assignee: "api-dev" });
    await k.create({ id: "away", assignee: "api-dev" });
    await c.checkpoint(dev);
    await c.start("old", dev);
    await k.create({ id: "new", assignee: "api-dev", title: "New work" });
    await k.create({ id: "theirs", assignee: "qa-dev" });
    await c.reassign("theirs", "api-dev");
    await c.reassign("away", "qa-dev");
    await c.start("away", qa);
    await k.create({ id: "unrelated", assignee: "qa-dev" });

    const b = await c.brief(dev);
    expect(b.since).toMatchObject({ kind: "stop", principal: "api-dev" });
    const summary = b.contracts.items.map((x) => [x.id, x.status, x.assignee, x.changes.map((ch) => `${ch.event}:${ch.from}>${ch.to}@${ch.by}`)]);
    expect(summary).toEqual([
      ["away", "in_progress", "qa-dev", ["reassigned:api-dev>qa-dev@operator"]],
      ["theirs", "ready", "api-dev", ["reassigned:qa-dev>api-dev@operator"]],
      ["new", "ready", "api-dev", ["created:null>pending@operator", "status_changed:pending>ready@operator"]],
      ["old", "in_progress", "api-dev", ["status_changed:ready>in_progress@api-dev"]],
    ]);
    expect(b.contracts.total).toBe(4);
    expect(b.markdown).toContain('- away "Work": now in_progress, assigned to qa-dev; reassigned api-dev → qa-dev by operator');
    expect(b.markdown).toContain('- new "New work": now ready; created (pending) by operator; pending → ready (dependencies satisfied)');
  });

  it(`lists at most ${BRIEF_ITEMS} contracts and counts the rest`, async () => {
    await c.checkpoint(dev);
    for (let i = 0; i < BRIEF_ITEMS + 3; i++) await k.create({ id: `c${i}`, assignee: "api-dev" });
    const b = await c.brief(dev);
    expect(b.contracts.items).toHaveLength(BRIEF_ITEMS);
    expect(b.contracts.total).toBe(BRIEF_ITEMS + 3);
    expect(b.markdown).toContain("- … and 3 more (contract_list)");
  });
});

describe("artifacts read that have newer versions", () => {
  it("names the newest version read and the current one, ignoring the principal's own publications and re-reads", async () => {
    await k.publish({ id: "spec" });
    await k.publish({ id: "notes" });
    await k.publish({ id: "mine" });
    await k.read("spec", undefined, dev);
    await k.read("notes", undefined, dev);
    await k.read("mine", undefined, dev);
    await k.publish({ id: "spec" });
    await k.publish({ id: "spec" }, qa);
    await k.publish({ id: "notes" });
    await k.read("notes", undefined, dev);
    await k.publish({ id: "mine" }, dev);
    await k.read("spec", undefined, qa);

    const b = await c.brief(dev);
    expect(b.artifacts.items.map((a) => [a.id, a.readVersion, a.currentVersion, a.publisher])).toEqual([["spec", 1, 3, "qa-dev"]]);
    expect((await c.brief(qa)).artifacts.items).toEqual([]);
  });
});

describe("unread messages", () => {
  it(`counts unread, unarchived messages and shows the oldest ${BRIEF_MESSAGES} with sender and text`, async () => {
    for (let i = 1; i <= BRIEF_MESSAGES + 2; i++) await c.send(i % 2 ? "qa-dev" : "operator", "api-dev", `message ${i}`);
    await c.send("api-dev", "qa-dev", "not mine");
    await hub.db.write("test.read", "api-dev", (tx) => tx.run(sql`UPDATE "Message" SET "readAt" = ${tx.now} WHERE "text" = 'message 1'`));
    await hub.db.write("test.archive", "api-dev", (tx) => tx.run(sql`UPDATE "Message" SET "archivedAt" = ${tx.now} WHERE "text" = 'message 2'`));
    const b = await c.brief(dev);
    expect(b.messages.unread).toBe(BRIEF_MESSAGES);
    expect(b.messages.first.map((m) => [m.sender, m.text])).toEqual([3, 4, 5, 6, 7].map((i) => [i % 2 ? "qa-dev" : "operator", `message ${i}`]));
    expect(b.markdown).toContain("## Unread messages (5)");
  });
});

describe("decisions and patterns since the last checkpoint", () => {
  it("shows only those recorded or changed after it", async () => {
    await c.decide({ title: "Before" });
    await c.register({ name: "kept", description: "unchanged since" });
    await c.register({ name: "changed", description: "v1" });
    await c.checkpoint(dev);
    await c.decide({ title: "After", decision: "Ship on Fridays" }, qa);
    await c.register({ name: "changed", description: "v2" });
    await c.register({ name: "fresh", description: "new one" });
    await c.register({ name: "kept", description: "unchanged since" });
    const b = await c.brief(dev);
    expect(b.decisions).toMatchObject({ items: [{ title: "After", author: "qa-dev" }], total: 1 });
    expect(b.patterns.items.map((p) => [p.name, p.description])).toEqual([
      ["fresh", "new one"],
      ["changed", "v2"],
    ]);
    expect(b.markdown).toContain("## New decisions (1)\n- #4 After (qa-dev): Ship on Fridays");
    expect(b.markdown).toContain("## New or changed patterns (2)\n- fresh: new one\n- changed: v2");
  });
});

describe("the briefing as a whole", () => {
  it("starts from that Claude session's checkpoint, carries the caller's git facts and the last summary, and writes nothing", async () => {
    await c.checkpoint(dev, { claudeSessionId: "s-1", state: { head: "aaaaaaa111", summary: "Was writing the login route" } });
    await c.decide({ title: "Between" });
    await c.checkpoint(dev, { claudeSessionId: "s-2" });
    const files = Array.from({ length: 22 }, (_, i) => `src/f${i}.ts`);
    const before = await snapshotTables(hub);
    const b = await c.brief(dev, { claudeSessionId: "s-1", git: { head: "bbbbbbb222", since: "aaaaaaa111", changedFiles: files } });
    expect(await snapshotTables(hub)).toEqual(before);
    expect(b.since).toMatchObject({ claudeSessionId: "s-1" });
    expect(b.decisions.items.map((d) => d.title)).toEqual(["Between"]);
    expect(b.git).toEqual({ head: "bbbbbbb222", since: "aaaaaaa111", changedFiles: files });
    expect(b.markdown).toContain("Where you left off: Was writing the login route");
    expect(b.markdown).toContain("## Files changed in the work tree (since aaaaaaa111, now bbbbbbb222) (22)\n- src/f0.ts");
    expect(b.markdown).toContain("- src/f19.ts\n- … and 2 more");
    expect((await c.brief(dev, { claudeSessionId: "s-2" })).markdown).toContain("Nothing changed for you since then.");
  });

  it("refuses bad git facts and session ids, and writes nothing", async () => {
    for (const [input, field] of [
      [{ git: { head: "HEAD" } }, "git.head"],
      [{ git: { changedFiles: "a.ts" } }, "git.changedFiles"],
      [{ git: { branch: "main" } }, "git"],
      [{ claudeSessionId: "" }, "claudeSessionId"],
    ] as const) {
      const err = await refusedWithoutWriting(hub, () => c.brief(dev, input));
      expect(issues(err)[0], JSON.stringify(input)).toMatchObject({ field });
    }
  });
});
