import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpsertMemberInput } from "../../../lib/api/roster.ts";
import { continuityKit, member } from "../../testing/continuity-kit.ts";
import { knowledgeKit, type KnowledgeKit } from "../../testing/knowledge-kit.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { grantLead } from "../auth/grants.service.ts";
import { createToken } from "../auth/tokens.service.ts";
import { OPERATOR } from "../principal.ts";
import { upsertMember } from "../roster/roster.service.ts";
import { CreatePipelineInput } from "../../../lib/api/pipelines.ts";
import { inboxOf } from "../chat/messages.ts";
import { createPipeline } from "../pipelines/pipelines.service.ts";
import { PipelineRunner } from "../pipelines/runner.ts";
import { parseOrThrow } from "../zod-errors.ts";

let hub: TempHub;
let k: Kit;
let n: KnowledgeKit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
  n = knowledgeKit(hub);
});
afterEach(async () => hub.close());

const analyst = member("analyst-1");
const writer = member("writer-1");

describe("state updates", () => {
  it("are stored in the caller's name with its roster role, the ref pinned, and announced", async () => {
    await upsertMember(hub, OPERATOR, parseOrThrow(UpsertMemberInput, { name: "analyst-1", role: "analyst" }));
    await k.publish({ id: "research-notes" });
    const u = await n.post(analyst, {
      status: "completed",
      task: "Research auth options",
      ref: "research-notes",
      keyFindings: ["JWT fits the gateway", "  Redis is not available  "],
      decisions: [{ decision: "Use RS256", rationale: "The gateway verifies without a secret" }],
      filesModified: ["notes/auth.md"],
      verification: "peer-reviewed",
    });
    expect(u).toEqual({
      id: 1,
      team: "default",
      member: "analyst-1",
      role: "analyst",
      status: "completed",
      task: "Research auth options",
      ref: { artifactId: "research-notes", version: 1 },
      keyFindings: ["JWT fits the gateway", "Redis is not available"],
      decisions: [{ decision: "Use RS256", rationale: "The gateway verifies without a secret" }],
      filesModified: ["notes/auth.md"],
      verification: "peer-reviewed",
      createdAt: expect.any(Date),
    });
    expect(hub.events.at(-1)).toMatchObject({
      type: "state.updated",
      subject: "member:analyst-1",
      principal: "analyst-1",
      payload: { id: 1, member: "analyst-1", role: "analyst", status: "completed", task: "Research auth options", ref: "research-notes@v1" },
    });
  });

  it("merge into the team state: the newest per member with its history, members by name", async () => {
    await n.post(writer, { status: "in_progress", task: "Draft" });
    await n.post(analyst, { status: "in_progress", task: "Step 1" });
    await n.post(analyst, { status: "blocked", task: "Step 2" });
    await n.post(analyst, { status: "completed", task: "Step 3" });
    const s = await n.state({ history: 1 });
    expect(s.members.map((m) => [m.member, m.latest.task, m.history.map((h) => h.task)])).toEqual([
      ["analyst-1", "Step 3", ["Step 2"]],
      ["writer-1", "Draft", []],
    ]);
    expect((await n.state({ member: "analyst-1" })).members[0].history.map((h) => h.status)).toEqual(["blocked", "in_progress"]);
  });

  it.each([
    ["too many findings", { keyFindings: ["a", "b", "c", "d", "e", "f"] }, "keyFindings", "must list at most 5 findings"],
    ["a finding too long", { keyFindings: ["ok", "x".repeat(101)] }, "keyFindings[1]", "must be at most 100 characters"],
    ["an unknown verification", { verification: "looked-at-it" }, "verification", "must be one of self-validated, peer-reviewed, tested"],
    ["an unknown status", { status: "done" }, "status", "must be one of in_progress, completed, blocked, failed"],
    ["a ref to a missing version", { ref: "research-notes@v7" }, "ref", "artifact version 'research-notes@v7' does not exist in team 'default'"],
    ["a ref to a missing artifact", { ref: "nothing-here" }, "ref", "artifact 'nothing-here' has no active version in team 'default'"],
    ["a decision without rationale", { decisions: [{ decision: "Use X" }] }, "decisions[0].rationale", "must be a string"],
    ["an empty task", { task: "  " }, "task", "must not be empty"],
  ])("refuse %s, naming the field, and write nothing", async (_, input, field, message) => {
    await k.publish({ id: "research-notes" });
    const e = await refusedWithoutWriting(hub, () => n.post(analyst, input));
    expect(e.code).toBe("invalid_input");
    expect(issues(e)[0]).toMatchObject({ field, message });
  });
});

describe("wisdom", () => {
  it("appends every kind in the caller's name and reads newest last, filtered by kind", async () => {
    await n.append(analyst, { kind: "learning", title: "Tests need a fresh db", body: "Each test file migrates its own" });
    await n.append(writer, { kind: "issue", title: "Flaky CI", body: "Chromium sometimes fails to start" });
    await n.append(writer, { kind: "convention", title: "error-envelope", body: "{error: {code, message}}", examples: ["{error: {code: 'x'}}"] });
    const all = await n.wisdom();
    expect(all.items.map((w) => [w.id, w.kind, w.author])).toEqual([
      [1, "learning", "analyst-1"],
      [2, "issue", "writer-1"],
      [3, "convention", "writer-1"],
    ]);
    expect((await n.wisdom({ kind: "issue" })).items.map((w) => w.title)).toEqual(["Flaky CI"]);
    expect((await n.wisdom({ after: 1, limit: 1 })).nextAfter).toBe(2);
    // The page's read: the newest two, still newest last (it showed the oldest once a team passed its limit).
    expect((await n.wisdom({ limit: 2, newest: true })).items.map((w) => w.id)).toEqual([2, 3]);
    expect(hub.events.at(-1)).toMatchObject({ type: "wisdom.appended", subject: "wisdom:3", payload: { id: 3, kind: "convention", title: "error-envelope" } });
  });

  it("folds in the decision journal and the pattern registry, whose commands still work", async () => {
    const c = continuityKit(hub);
    const d = await c.decide({ title: "Use JWT", decision: "JWT with RS256" }, analyst);
    await c.register({ name: "naming", description: "kebab-case files" }, writer);
    await n.append(writer, { kind: "convention", title: "naming", body: "kebab-case files, PascalCase components" });
    expect((await c.decisions()).items.map((x) => x.title)).toEqual(["Use JWT"]);
    expect(await c.pattern("naming")).toMatchObject({ description: "kebab-case files, PascalCase components", author: "writer-1" });
    expect((await n.wisdom()).items.map((w) => [w.id, w.kind, w.title])).toEqual([
      [d.id, "decision", "Use JWT"],
      [2, "convention", "naming"],
      [3, "convention", "naming"],
    ]);
  });

  it("refuses edits and deletes of an entry, and a convention titled outside the name rules, writing nothing", async () => {
    await n.append(analyst, { kind: "learning", title: "Keep it", body: "As written" });
    for (const change of ["edit", "delete"] as const) {
      const e = await refusedWithoutWriting(hub, () => n.change(1, change));
      expect(e).toMatchObject({ code: "illegal_transition", details: { id: 1, rule: "append_only" } });
      expect(e.message).toContain(`wisdom entry #1 cannot be ${change === "edit" ? "edited" : "deleted"}: wisdom is append-only`);
    }
    expect((await refusedWithoutWriting(hub, () => n.change(9, "delete"))).message).toBe("id: wisdom entry '9' does not exist");
    const bad = await refusedWithoutWriting(hub, () => n.append(analyst, { kind: "convention", title: "Error Envelope" }));
    expect(issues(bad)[0]).toMatchObject({ field: "title", message: expect.stringContaining("a convention's title is its name") });
    const kind = await refusedWithoutWriting(hub, () => n.append(analyst, { kind: "rumour" }));
    expect(issues(kind)[0]).toMatchObject({ field: "kind", message: "must be one of learning, decision, convention, issue" });
    const link = await refusedWithoutWriting(hub, () => n.append(analyst, { kind: "decision", related: { artifacts: ["ghost"] } }));
    expect(issues(link)[0]).toMatchObject({ field: "related.artifacts[0]", rule: "exists" });
  });
});

describe("the exploration cache", () => {
  it("normalises angles, misses before a record and hits after it, naming who created the entry and when", async () => {
    expect(await n.lookup("Auth Token Storage")).toEqual({ angle: "auth-token-storage", hit: false, entry: null });
    await k.publish({ id: "auth-research" });
    const r = await n.record(analyst, { angle: "authTokenStorage", result: "Use httpOnly cookies", ref: "auth-research" });
    expect(r).toMatchObject({
      angle: "auth-token-storage",
      outcome: "created",
      createdBy: "analyst-1",
      revision: 1,
      ref: { artifactId: "auth-research", version: 1 },
    });
    const hit = await n.lookup("auth_token_storage");
    expect(hit).toMatchObject({
      hit: true,
      entry: { angle: "auth-token-storage", result: "Use httpOnly cookies", createdBy: "analyst-1", createdAt: r.createdAt },
    });
    expect(hub.events.at(-1)).toMatchObject({ type: "exploration.recorded", subject: "exploration:auth-token-storage", payload: { outcome: "created" } });
  });

  it("lets only the creator (or a lead, or the operator) update an entry; someone else is refused and nothing is written", async () => {
    await n.record(analyst, { angle: "caching", result: "v1" });
    hub.clock.advance(10);
    const mine = await n.record(analyst, { angle: "caching", result: "v2" });
    expect(mine).toMatchObject({ outcome: "updated", revision: 2, result: "v2", createdBy: "analyst-1" });
    expect(mine.updatedAt.getTime()).toBeGreaterThan(mine.createdAt.getTime());
    const e = await refusedWithoutWriting(hub, () => n.record(writer, { angle: "Caching", result: "mine now" }));
    expect(e).toMatchObject({ code: "forbidden", details: { operation: "exploration.update", principal: "writer-1" } });
    expect(e.message).toBe(
      "'writer-1' (member) may not update the exploration cache entry 'caching' (created by analyst-1): only its creator, a lead of team 'default' or the operator may",
    );
    await createToken(hub, OPERATOR, { name: "writer-1", kind: "member" });
    await grantLead(hub, OPERATOR, { team: "default", name: "writer-1" });
    expect(await n.record(writer, { angle: "caching", result: "corrected" })).toMatchObject({ revision: 3, createdBy: "analyst-1" });
  });

  it("refuses an angle with no letters or digits and a ref to a missing version, writing nothing", async () => {
    expect(issues(await refusedWithoutWriting(hub, () => n.lookup("--")))[0]).toMatchObject({ field: "angle", message: expect.stringContaining("kebab-case") });
    expect(issues(await refusedWithoutWriting(hub, () => n.record(analyst, { angle: "x", ref: "nope@v1" })))[0]).toMatchObject({
      field: "ref",
      rule: "exists",
    });
  });

  it("lists entries by angle, a page at a time", async () => {
    for (const angle of ["b-angle", "a-angle", "c-angle"]) await n.record(analyst, { angle });
    const first = await n.explorations({ limit: 2 });
    expect([first.items.map((e) => e.angle), first.nextCursor]).toEqual([["a-angle", "b-angle"], "b-angle"]);
    expect((await n.explorations({ cursor: "b-angle" })).items.map((e) => e.angle)).toEqual(["c-angle"]);
  });
});

describe("the state_updated trigger", () => {
  it("fires on state updates that pass its role and status filters, with the update as `state`", async () => {
    for (const [name, role] of [
      ["analyst-1", "analyst"],
      ["writer-1", "writer"],
      ["lead", ""],
    ])
      await upsertMember(hub, OPERATOR, parseOrThrow(UpsertMemberInput, { name, role }));
    await createPipeline(
      hub,
      OPERATOR,
      CreatePipelineInput.parse({
        id: "unblock",
        rules: [
          {
            trigger: { type: "state_updated", role: "analyst", status: "blocked" },
            condition: "size(state.keyFindings) > 0",
            action: { type: "notify_session", target: "lead", message: "${state.member} is blocked on ${state.task}: ${state.keyFindings[0]}" },
          },
        ],
      }),
    );
    await n.post(analyst, { status: "in_progress", task: "Research" });
    await n.post(writer, { status: "blocked", task: "Draft", keyFindings: ["no outline"] });
    await n.post(analyst, { status: "blocked", task: "Research", keyFindings: ["no API key"] });
    await new PipelineRunner(hub).drain();
    const inbox = await hub.db.read((sql) => inboxOf(sql, "default", "lead"));
    expect(inbox.map((m) => m.text)).toEqual(["analyst-1 is blocked on Research: no API key"]);
  });

  it("refuses filters that do not apply to it, naming them", async () => {
    const e = await refusedWithoutWriting(hub, () =>
      createPipeline(
        hub,
        OPERATOR,
        CreatePipelineInput.parse({ id: "p", rules: [{ trigger: { type: "state_updated", artifactId: "x" }, action: { type: "broadcast", message: "m" } }] }),
      ),
    );
    expect(issues(e)[0]).toMatchObject({
      field: "rules[0].trigger.artifactId",
      message: "does not apply to state_updated triggers (they accept role, status, publisher)",
    });
  });
});

describe("snapshots and reset", () => {
  it("point at the team state and the cache; a reset archives them and rolling back to its snapshot brings them back", async () => {
    await n.post(analyst, { task: "Before the snapshot" });
    await n.record(analyst, { angle: "caching", result: "v1" });
    const snap = await k.snapshot({ id: "s1" });
    await n.post(analyst, { task: "After the snapshot" });
    await n.record(writer, { angle: "queues", result: "later" });
    await k.rollback("s1");
    expect((await n.state()).members.map((m) => [m.member, m.latest.task, m.history.length])).toEqual([["analyst-1", "Before the snapshot", 0]]);
    expect((await n.explorations()).items.map((e) => e.angle)).toEqual(["caching"]);
    expect(snap.id).toBe("s1");

    const reset = await k.reset({ confirm: true });
    expect((await n.state()).members).toEqual([]);
    expect(await n.lookup("caching")).toMatchObject({ hit: false });
    // After a reset, anyone may explore an angle afresh: its old creator's claim went with the archived entry.
    expect(await n.record(writer, { angle: "caching", result: "fresh" })).toMatchObject({ createdBy: "writer-1", revision: 2 });
    await k.rollback(reset.snapshotId);
    expect((await n.state()).members.map((m) => m.latest.task)).toEqual(["Before the snapshot"]);
    expect(await n.lookup("caching")).toMatchObject({ hit: true, entry: { result: "v1", createdBy: "analyst-1" } });
  });
});
