import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatKit } from "../../testing/chat-kit.ts";
import { continuityKit, member, type ContinuityKit } from "../../testing/continuity-kit.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sql } from "../../db/sql.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { MAX_SUMMARY_CHARS } from "../../../lib/api/continuity.ts";

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
const SESSION = "0b6f7a52-3c1e-4c8e-9a51-6f1d2e3c4b5a";
const hookJson = (extra: Record<string, unknown> = {}) => ({
  session_id: SESSION,
  cwd: "/work/project",
  transcript_path: "/tmp/t.jsonl",
  permission_mode: "default",
  ...extra,
});

describe("the Stop, PreCompact and SessionEnd hooks", () => {
  it("record a checkpoint of the caller's working state, with the last reply as its summary", async () => {
    const reply = `Done with the login route. ${"x".repeat(MAX_SUMMARY_CHARS)}`;
    const out = await c.hook(dev, {
      event: "stop",
      hook: hookJson({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: reply }),
      git: { head: "abc1234", changedFiles: ["src/login.ts"] },
    });
    expect(out.briefing).toBeNull();
    expect(out.checkpoint).toMatchObject({
      kind: "stop",
      principal: "api-dev",
      claudeSessionId: SESSION,
      state: { cwd: "/work/project", head: "abc1234", changedFiles: ["src/login.ts"] },
    });
    expect(out.checkpoint.state.summary).toHaveLength(MAX_SUMMARY_CHARS);
    expect(out.checkpoint.state.summary!.endsWith("…")).toBe(true);
    for (const [event, kind] of [
      ["pre-compact", "pre_compact"],
      ["session-end", "session_end"],
    ] as const) {
      const { checkpoint } = await c.hook(dev, { event, hook: hookJson({ trigger: "auto", reason: "other" }) });
      expect(checkpoint).toMatchObject({ kind, state: { cwd: "/work/project", summary: out.checkpoint.state.summary } });
    }
  });

  it("keep only their own session's summary", async () => {
    await c.hook(dev, { event: "stop", hook: hookJson({ last_assistant_message: "Working on the API" }) });
    const other = await c.hook(dev, { event: "pre-compact", hook: hookJson({ session_id: "another-session" }) });
    expect(other.checkpoint.state).toEqual({ cwd: "/work/project" });
    const anonymous = await c.hook(dev, { event: "session-end", hook: {} });
    expect(anonymous.checkpoint.state).toEqual({});
  });
});

describe("the SessionStart hook", () => {
  it("briefs since the previous checkpoint and records where this briefing ends, in one transaction", async () => {
    await k.create({ id: "build-api", assignee: "api-dev" });
    await chatKit(hub).inbox("api-dev"); // the notice of the new contract, read: no unread messages below
    await c.hook(dev, { event: "stop", hook: hookJson({ last_assistant_message: "Started on build-api" }), git: { head: "1111111" } });
    await c.start("build-api", dev);
    await c.decide({ title: "Use JWT" });

    const out = await c.hook(dev, {
      event: "session-start",
      hook: hookJson({ source: "resume" }),
      git: { head: "2222222", since: "1111111", changedFiles: ["src/a.ts"] },
    });
    expect(out.briefing!.since).toMatchObject({ kind: "stop", state: { summary: "Started on build-api", head: "1111111" } });
    expect(out.briefing!.contracts.items.map((x) => [x.id, x.status])).toEqual([["build-api", "in_progress"]]);
    expect(out.briefing!.markdown).toContain("## New decisions (1)");
    expect(out.briefing!.markdown).toContain("- src/a.ts");
    const maxEvent = (await hub.db.read((s) => s.get<{ id: number }>(sql`SELECT MAX("id") AS "id" FROM "Event"`)))!.id;
    expect(out.checkpoint).toMatchObject({ kind: "session_start", lastEventId: maxEvent, state: { head: "2222222", changedFiles: ["src/a.ts"] } });

    const again = await c.hook(dev, { event: "session-start", hook: hookJson({ source: "clear" }) });
    expect(again.briefing!.since).toMatchObject({ id: out.checkpoint.id });
    expect(again.briefing!.markdown).toContain("Nothing changed for you since then.");
  });

  it("refuses an unknown event and malformed hook fields, and writes nothing", async () => {
    for (const [input, field] of [
      [{ event: "notification", hook: hookJson() }, "event"],
      [{ event: "stop", hook: hookJson({ session_id: "../../x" }) }, "hook.session_id"],
      [{ event: "stop", hook: hookJson({ cwd: 7 }) }, "hook.cwd"],
      [{ event: "stop", hook: "{}" }, "hook"],
      [{ event: "session-start", hook: hookJson(), git: { head: "main" } }, "git.head"],
    ] as const) {
      const err = await refusedWithoutWriting(hub, () => c.hook(dev, input));
      expect(issues(err)[0], JSON.stringify(input).slice(0, 80)).toMatchObject({ field });
    }
  });
});
