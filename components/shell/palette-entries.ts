/**
 * What the command palette searches (docs/dashboard.md#the-palette): the pages; the team's sessions, members (by name
 * and role), contracts (by id and title), artifacts, pipelines, snapshots and recent messages; and what it can do: allow
 * a waiting request, start a member, a new contract for a member, raise a budget, take a snapshot. Fetched when the
 * palette opens, not on every page.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { shareOf } from "@/lib/budget-figures.ts";
import { keys } from "@/lib/queries/keys.ts";
import { summarizeInput } from "../sessions/transcript-model.ts";
import { statusLabel } from "../ui/StatusBadge.tsx";
import type { PaletteEntry } from "./palette-match.ts";

const enc = encodeURIComponent;
/** How many of each list the palette searches. */
const PALETTE = { limit: 500 };
/** The newest messages searched. */
const MESSAGES = 100;

function useLists(team: string, open: boolean) {
  const on = { enabled: open };
  return {
    sessions: useQuery({ queryKey: [...keys.sessions(team), "palette"], queryFn: () => apiCall(api.sessions.list, { team, ...PALETTE }), ...on }),
    roster: useQuery({ queryKey: keys.roster(team), queryFn: () => apiCall(api.roster.list, { team }), ...on }),
    contracts: useQuery({ queryKey: keys.contracts.list(team, PALETTE), queryFn: () => apiCall(api.contracts.list, { team, ...PALETTE }), ...on }),
    artifacts: useQuery({ queryKey: keys.artifacts.list(team, PALETTE), queryFn: () => apiCall(api.artifacts.list, { team, ...PALETTE }), ...on }),
    pipelines: useQuery({ queryKey: keys.pipelines(team), queryFn: () => apiCall(api.pipelines.list, { team }), ...on }),
    snapshots: useQuery({ queryKey: [...keys.snapshots(team), "palette"], queryFn: () => apiCall(api.snapshots.list, { team, limit: 50 }), ...on }),
    messages: useQuery({
      queryKey: keys.messages.list(team, { limit: MESSAGES }),
      queryFn: () => apiCall(api.chat.messages, { team, limit: MESSAGES }),
      retry: false,
      ...on,
    }),
    approvals: useQuery({
      queryKey: [...keys.approvals(team), "pending", "palette"],
      queryFn: () => apiCall(api.sessions.approvals, { team, status: "pending", limit: 50 }),
      ...on,
    }),
    budgets: useQuery({ queryKey: keys.budgets(team), queryFn: () => apiCall(api.budgets.list, { team }), retry: false, ...on }),
  };
}

export function usePaletteEntries(team: string, open: boolean, pages: readonly { href: string; label: string }[]): PaletteEntry[] {
  const l = useLists(team, open);
  const [sessions, roster, contracts, artifacts, pipelines, snapshots, messages, approvals, budgets] = [
    l.sessions.data,
    l.roster.data,
    l.contracts.data,
    l.artifacts.data,
    l.pipelines.data,
    l.snapshots.data,
    l.messages.data,
    l.approvals.data,
    l.budgets.data,
  ] as const;
  return useMemo(() => {
    const members = roster ?? [];
    const actions: PaletteEntry[] = [
      { kind: "action", label: "Take snapshot", detail: "action · of the team's state now", text: "snapshot save", action: { type: "take-snapshot" } },
      { kind: "action", label: "Start member", detail: "action · a team member in a session of its own", text: "spawn team", action: { type: "start-member" } },
      ...(approvals ?? []).map((a): PaletteEntry => ({
        kind: "action",
        label: `Allow ${a.toolName} for ${a.session}`,
        detail: `action · ${a.inputHidden ? "waiting" : summarizeInput(a.input, 60)}`,
        text: `approve ${a.inputHidden ? "" : summarizeInput(a.input, 200)}`,
        at: a.createdAt.getTime(),
        action: { type: "allow", session: a.session, approvalId: a.id },
      })),
      ...members.map((m): PaletteEntry => ({
        kind: "action",
        label: `New contract for ${m.name}`,
        detail: `action · ${m.role || "member"}`,
        text: `create ${m.role}`,
        action: { type: "new-contract", member: m.name },
      })),
      ...(budgets ?? []).map((b): PaletteEntry => ({
        kind: "action",
        label: `${b.scope === "team" ? "Raise the team's" : `Raise ${b.target}'s`} ${b.unit === "tokens" ? "token budget" : "budget"}`,
        detail: `action · ${b.scope} budget, ${b.usedUp ? "used up" : `${Math.round(shareOf(b) * 100)}% spent`}`,
        text: `budget ${b.scope}`,
        action: { type: "raise-budget", scope: b.scope, target: b.target, unit: b.unit },
      })),
    ];
    return [
      ...actions,
      ...pages.map((p): PaletteEntry => ({ kind: "page", label: p.label, detail: "page", href: p.href })),
      ...(sessions ?? []).map((s): PaletteEntry => ({
        kind: "session",
        label: s.name,
        detail: `session · ${statusLabel(s.status)}`,
        at: s.updatedAt.getTime(),
        href: `/sessions/${enc(s.name)}`,
      })),
      ...members.map((m): PaletteEntry => ({
        kind: "member",
        label: m.name,
        detail: `member · ${m.role || "no role"}`,
        text: `${m.role} ${m.currentTask ?? ""}`,
        at: m.lastSeen.getTime(),
        href: m.sessionId ? `/sessions/${enc(m.sessionId)}` : `/inbox`,
      })),
      ...(contracts?.items ?? []).map((c): PaletteEntry => ({
        kind: "contract",
        label: c.id,
        detail: `contract · ${c.title}`,
        text: `${c.title} ${c.assignee}`,
        at: c.updatedAt.getTime(),
        href: `/canvas?contract=${enc(c.id)}`,
      })),
      ...(artifacts?.items ?? []).map((a): PaletteEntry => ({
        kind: "artifact",
        label: a.id,
        detail: `artifact · ${a.type}`,
        text: a.name,
        at: a.updatedAt.getTime(),
        href: `/artifacts/${enc(a.id)}`,
      })),
      ...(pipelines ?? []).map((p): PaletteEntry => ({
        kind: "pipeline",
        label: p.id,
        detail: `pipeline · ${p.rules.length} rule${p.rules.length === 1 ? "" : "s"} · ${p.status}`,
        text: p.rules.map((r) => `${r.name ?? ""} ${r.trigger.type} ${r.action.type}`).join(" "),
        at: p.updatedAt.getTime(),
        href: `/pipelines/${enc(p.id)}`,
      })),
      ...(snapshots?.items ?? []).map((s): PaletteEntry => ({
        kind: "snapshot",
        label: s.label || s.id,
        detail: `snapshot · ${s.id}`,
        text: `${s.label} ${s.id}`,
        at: s.createdAt.getTime(),
        href: "/snapshots",
      })),
      ...(messages?.messages ?? []).map((m): PaletteEntry => ({
        kind: "message",
        label: `${m.from} → ${m.to}`,
        detail: `message · ${m.text.replace(/\s+/g, " ").slice(0, 80)}`,
        text: m.text,
        at: m.sentAt.getTime(),
        href: "/inbox",
      })),
    ];
  }, [pages, sessions, roster, contracts, artifacts, pipelines, snapshots, messages, approvals, budgets]);
}
