import { describe, expect, it } from "vitest";
import type { EventType } from "../../lib/api/events.ts";
import { WireEvent } from "../../lib/ws.ts";
import { alertFor, nextAlerts, type Alert } from "./alerts.ts";

/** Whole payloads of the types these tests use; each test sets the fields it is about. */
const BASE: Partial<Record<EventType, Record<string, unknown>>> = {
  "artifact.published": {
    artifactId: "x",
    version: 1,
    seq: 1,
    type: "custom",
    name: "x",
    publisher: "p",
    contractId: null,
    derivedFrom: [],
    summary: "",
    size: 2,
  },
  "budget.set": { scope: "team", target: null, amountUsd: 1, previousUsd: null, period: "lifetime", warnAt: 0.8, onExceed: null, spentUsd: 0, by: "operator" },
  "budget.warning": { amountUsd: 1, spentUsd: 0.8, period: "lifetime", window: "lifetime", warnAt: 0.8, member: "db-dev" },
  "budget.exhausted": { amountUsd: 1, spentUsd: 1, period: "lifetime", window: "lifetime", warnAt: 0.8, member: "db-dev" },
  "session.approval_requested": { reason: "", expiresAt: "2026-11-22T00:05:00.000Z" },
  "session.approval_decided": { requestId: "r", toolName: "Bash", decidedBy: "operator", note: null },
  "session.deleted": { pk: 1, wasLive: false, interactions: 0, transcriptEntries: 0, by: "operator" },
  "session.exited": { reason: "stopped", code: 0, signal: null, abandonedInteraction: null, stderrTail: "" },
  "session.problem": { previous: null },
  "session.stalled": { silentSince: null, thresholdMs: 60_000 },
};

let nextId = 1;
/** An event as /ws delivers it, parsed the way the dashboard's client parses it. */
const event = (type: EventType, payload: Record<string, unknown>): WireEvent =>
  WireEvent.parse({
    id: nextId++,
    teamId: "t",
    type,
    subject: "",
    payload: { ...BASE[type], ...payload },
    principal: "supervisor",
    causedBy: null,
    depth: 0,
    at: "2026-11-22T00:00:00.000Z",
  });

/** The alerts after a run of events, as the dashboard keeps them. */
const after = (...events: WireEvent[]) => events.reduce<Alert[]>((list, e) => nextAlerts(list, e).alerts, []);

describe("alertFor", () => {
  it("alerts when a session waits for approval, has a problem or stalls, linking to the session", () => {
    expect(alertFor(event("session.approval_requested", { name: "api dev", approvalId: 3, toolName: "Bash", input: { command: "npm i" } }))).toMatchObject({
      key: "approval:3",
      title: "api dev needs approval",
      body: "Bash: npm i",
      href: "/sessions/api%20dev",
    });
    expect(alertFor(event("session.problem", { name: "w", problem: "cost limit: $0.40 spent of $0.05", kind: "limit" }))).toMatchObject({
      title: "w hit a limit",
      body: "cost limit: $0.40 spent of $0.05",
    });
    expect(alertFor(event("session.problem", { name: "w", problem: "last turn failed: API Error: 500", kind: "turn_failed" }))).toMatchObject({
      title: "w has a failed turn",
    });
    expect(alertFor(event("session.problem", { name: "w", problem: "crashed: out of memory", kind: "failed" }))).toMatchObject({
      title: "w failed",
      body: "crashed: out of memory",
    });
    expect(alertFor(event("session.stalled", { name: "w" }))).toMatchObject({ key: "stalled:w", title: "w stalled" });
  });

  it("stays quiet otherwise", () => {
    expect(alertFor(event("session.exited", { name: "w", status: "stopped" }))).toBeNull();
    expect(alertFor(event("session.problem", { name: "w", problem: null, kind: null }))).toBeNull();
    expect(alertFor(event("artifact.published", { artifactId: "x" }))).toBeNull();
  });
});

describe("nextAlerts", () => {
  const asked = (name: string, approvalId: number) => event("session.approval_requested", { name, approvalId, toolName: "Bash", input: {} });
  const problem = (name: string, text: string | null) => event("session.problem", { name, problem: text, kind: text ? "turn_failed" : null });

  it("an approval alert goes when that approval is decided, expires or is withdrawn, and only that one", () => {
    for (const status of ["allowed", "denied", "timed_out", "cancelled"]) {
      const list = after(asked("a", 1), asked("a", 2), event("session.approval_decided", { name: "a", approvalId: 1, status }));
      expect(list.map((x) => x.key)).toEqual(["approval:2"]);
    }
  });

  it("a problem alert goes when the problem is resolved (a later turn succeeded, a resume), and a new problem replaces the old", () => {
    expect(after(problem("s", "last turn failed: A"), problem("s", null))).toEqual([]);
    const replaced = after(problem("s", "last turn failed: A"), problem("s", "last turn failed: B"));
    expect(replaced.map((x) => x.body)).toEqual(["last turn failed: B"]);
    expect(after(problem("s", "last turn failed: A"), problem("other", null)).map((x) => x.session)).toEqual(["s"]);
  });

  it("a deleted session takes all its alerts along; a stall alert goes when the session speaks again or exits", () => {
    expect(after(asked("s", 1), problem("s", "last turn failed: A"), asked("k", 2), event("session.deleted", { name: "s" })).map((x) => x.key)).toEqual([
      "approval:2",
    ]);
    expect(after(event("session.stalled", { name: "s" }), event("session.unstalled", { name: "s" }))).toEqual([]);
    expect(after(event("session.stalled", { name: "s" }), event("session.exited", { name: "s", status: "killed" }))).toEqual([]);
  });

  it("says what it raised and what it resolved, and keeps the newest few", () => {
    const step = nextAlerts(after(asked("a", 1)), event("session.approval_decided", { name: "a", approvalId: 1, status: "allowed" }));
    expect(step.raised).toBeNull();
    expect(step.resolved.map((x) => x.key)).toEqual(["approval:1"]);
    const many = after(...[1, 2, 3, 4, 5, 6, 7].map((n) => asked("a", n)));
    expect(many.map((x) => x.key)).toEqual(["approval:3", "approval:4", "approval:5", "approval:6", "approval:7"]);
  });
});

describe("budget alerts", () => {
  const crossed = (type: "budget.warning" | "budget.exhausted", scope: string, target: string | null) =>
    event(type, { scope, target, session: "db-dev", text: `Budget ${type}` });

  it("alerts when a budget passes its warning or is used up, and the budget's next change settles it", () => {
    expect(alertFor(crossed("budget.exhausted", "team", null))).toMatchObject({
      key: "budget:team:",
      title: "Budget of team t used up",
      body: "Budget budget.exhausted",
      href: "/",
    });
    expect(alertFor(crossed("budget.warning", "contract", "schema"))).toMatchObject({
      key: "budget:contract:schema",
      title: "Budget of contract schema past its warning",
    });
    const list = after(
      crossed("budget.warning", "contract", "schema"),
      crossed("budget.exhausted", "contract", "schema"),
      crossed("budget.warning", "team", null),
    );
    expect(list.map((a) => a.title)).toEqual(["Budget of contract schema used up", "Budget of team t past its warning"]);
    expect(
      after(crossed("budget.exhausted", "team", null), crossed("budget.warning", "member", "x"), event("budget.set", { scope: "team", target: null })).map(
        (a) => a.key,
      ),
    ).toEqual(["budget:member:x"]);
  });

  it("keeps a token budget's alert apart from the dollar budget of the same target", () => {
    const tokens = event("budget.exhausted", { scope: "member", target: "x", unit: "tokens", session: "x", text: "used up" });
    expect(alertFor(tokens)).toMatchObject({ key: "budget:member:x:tokens", title: "Budget of member x (tokens) used up" });
    expect(after(tokens, event("budget.set", { scope: "member", target: "x" })).map((a) => a.key)).toEqual(["budget:member:x:tokens"]);
    expect(after(tokens, event("budget.set", { scope: "member", target: "x", unit: "tokens", amountUsd: null, amountTokens: 5000 }))).toEqual([]);
  });

  it("a session blocked by a budget is an alert until its turn starts", () => {
    expect(alertFor(event("session.problem", { name: "w", problem: "blocked: budget — team 't': $1.00 spent of $1.00", kind: "budget" }))).toMatchObject({
      title: "w is blocked by a budget",
    });
  });
});
