/**
 * Which events deserve a person's attention right away (an alert, and a notification), what to
 * say, and which events resolve them again. Every open tab follows the same event log, so an
 * alert resolved in one (an approval decided there) goes away in all of them.
 */
import type { PayloadOf } from "@/lib/api/events.ts";
import type { WireEvent } from "@/lib/ws.ts";

/**
 * `key`: what the alert is about; a newer alert about the same thing replaces it, and resolving it removes it. The page
 * that shows the same thing marks it with `data-alert-key` (./Toasts.tsx). `approval`: the request a toast answers.
 */
export type Alert = {
  id: number;
  key: string;
  session: string;
  team: string | null;
  title: string;
  body: string;
  href: string;
  approval?: { id: number; toolName: string; input: Record<string, unknown> };
};

// A toast is one line: the body is cut long before any screen would end it (the page holds the whole input).
const BODY_MAX = 240;
const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > BODY_MAX ? `${line.slice(0, BODY_MAX - 1)}…` : line;
};

type ProblemKind = NonNullable<PayloadOf<"session.problem">["kind"]>;
const PROBLEM_TITLE: Record<ProblemKind, string> = {
  turn_failed: "has a failed turn",
  limit: "hit a limit",
  failed: "failed",
  budget: "is blocked by a budget",
  limited: "waits for a usage limit to reset",
};

/** A target's dollar and token budgets are two budgets: raising one does not settle the other's alert. */
export const budgetKey = (p: { scope: string; target: string | null; unit?: string }) =>
  `budget:${p.scope}:${p.target ?? ""}${p.unit === "tokens" ? ":tokens" : ""}`;

const sessionAt = (e: WireEvent, name: string) => ({ id: e.id, session: name, team: e.teamId, href: `/sessions/${encodeURIComponent(name)}` });

export function alertFor(e: WireEvent): Alert | null {
  switch (e.type) {
    // A budget past its warning or used up (docs/budgets.md); the budget's next change settles it.
    case "budget.warning":
    case "budget.exhausted": {
      const p = e.payload;
      const what = `${p.scope === "team" ? `team ${e.teamId}` : `${p.scope} ${p.target}`}${p.unit === "tokens" ? " (tokens)" : ""}`;
      const title = e.type === "budget.exhausted" ? `Budget of ${what} used up` : `Budget of ${what} past its warning`;
      return { id: e.id, key: budgetKey(p), session: p.session, team: e.teamId, title, body: oneLine(p.text), href: "/" };
    }
    case "session.approval_requested": {
      const { name, input, approvalId, toolName } = e.payload;
      const what = typeof input?.command === "string" ? input.command : typeof input?.file_path === "string" ? input.file_path : "";
      return {
        ...sessionAt(e, name),
        key: `approval:${approvalId}`,
        title: `${name} needs approval`,
        body: oneLine(`${toolName}${what ? `: ${what}` : ""}`),
        approval: { id: approvalId, toolName, input: input ?? {} },
      };
    }
    case "session.problem": {
      const { name, problem, kind } = e.payload;
      if (problem === null) return null;
      return { ...sessionAt(e, name), key: `problem:${name}`, title: `${name} ${kind ? PROBLEM_TITLE[kind] : "needs attention"}`, body: oneLine(problem) };
    }
    case "session.stalled":
      return { ...sessionAt(e, e.payload.name), key: `stalled:${e.payload.name}`, title: `${e.payload.name} stalled`, body: "no output for a while" };
    default:
      return null;
  }
}

/** Whether `e` settles what `a` announced: the approval was decided (or expired, or withdrawn), the problem resolved, the session spoke again or is gone. */
export function resolves(e: WireEvent, a: Alert): boolean {
  switch (e.type) {
    case "budget.set":
      return a.key === budgetKey(e.payload);
    case "session.deleted":
      return e.payload.name === a.session;
    case "session.approval_decided":
      return e.payload.name === a.session && a.key === `approval:${e.payload.approvalId}`;
    case "session.problem":
      return e.payload.name === a.session && a.key === `problem:${a.session}` && e.payload.problem === null;
    case "session.unstalled":
    case "session.exited":
      return e.payload.name === a.session && a.key === `stalled:${a.session}`;
    default:
      return false;
  }
}

// A handful on screen at once; the overview's needs-attention list holds the rest.
const MAX_ALERTS = 5;

/** The alerts after `e`: what it resolves is gone, and what it raises replaces any alert about the same thing. */
export function nextAlerts(list: Alert[], e: WireEvent): { alerts: Alert[]; raised: Alert | null; resolved: Alert[] } {
  const resolved = list.filter((a) => resolves(e, a));
  const raised = alertFor(e);
  const kept = list.filter((a) => !resolved.includes(a) && a.key !== raised?.key);
  return { alerts: raised ? [...kept, raised].slice(-MAX_ALERTS) : kept, raised, resolved };
}
