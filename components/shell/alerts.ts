/**
 * Which events deserve a person's attention right away (an alert, and a notification), what to
 * say, and which events resolve them again. Every open tab follows the same event log, so an
 * alert resolved in one (an approval decided there) goes away in all of them.
 */
import type { WireEvent } from "@/lib/ws.ts";

/** `key`: what the alert is about; a newer alert about the same thing replaces it, and resolving it removes it. */
export type Alert = { id: number; key: string; session: string; title: string; body: string; href: string };

const PROBLEM_TITLE: Record<string, string> = { turn_failed: "has a failed turn", limit: "hit a limit", failed: "failed", budget: "is blocked by a budget" };

const budgetKey = (p: Record<string, unknown>) => `budget:${String(p.scope)}:${String(p.target ?? "")}`;

export function alertFor(e: WireEvent): Alert | null {
  // A budget past its warning or used up (docs/budgets.md); the budget's next change settles it.
  if ((e.type === "budget.warning" || e.type === "budget.exhausted") && typeof e.payload.session === "string") {
    const what = e.payload.scope === "team" ? `team ${e.teamId}` : `${String(e.payload.scope)} ${String(e.payload.target)}`;
    const title = e.type === "budget.exhausted" ? `Budget of ${what} used up` : `Budget of ${what} past its warning`;
    return { id: e.id, key: budgetKey(e.payload), session: e.payload.session, title, body: String(e.payload.text ?? ""), href: "/" };
  }
  const name = typeof e.payload.name === "string" ? e.payload.name : null;
  if (!name) return null;
  const at = { id: e.id, session: name, href: `/sessions/${encodeURIComponent(name)}` };
  if (e.type === "session.approval_requested") {
    const input = e.payload.input as Record<string, unknown> | undefined;
    const what = typeof input?.command === "string" ? input.command : typeof input?.file_path === "string" ? input.file_path : "";
    return {
      ...at,
      key: `approval:${String(e.payload.approvalId)}`,
      title: `${name} needs approval`,
      body: `${String(e.payload.toolName)}${what ? `: ${what}` : ""}`,
    };
  }
  if (e.type === "session.problem" && typeof e.payload.problem === "string") {
    return { ...at, key: `problem:${name}`, title: `${name} ${PROBLEM_TITLE[String(e.payload.kind)] ?? "needs attention"}`, body: e.payload.problem };
  }
  if (e.type === "session.stalled") return { ...at, key: `stalled:${name}`, title: `${name} stalled`, body: "no output for a while" };
  return null;
}

/** Whether `e` settles what `a` announced: the approval was decided (or expired, or withdrawn), the problem resolved, the session spoke again or is gone. */
export function resolves(e: WireEvent, a: Alert): boolean {
  if (e.type === "budget.set") return a.key === budgetKey(e.payload);
  if (e.payload.name !== a.session) return false;
  switch (e.type) {
    case "session.deleted":
      return true;
    case "session.approval_decided":
      return a.key === `approval:${String(e.payload.approvalId)}`;
    case "session.problem":
      return a.key === `problem:${a.session}` && e.payload.problem === null;
    case "session.unstalled":
    case "session.exited":
      return a.key === `stalled:${a.session}`;
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
