"use client";

import { useMemo, type DragEvent } from "react";
import type { ContractGraphNode } from "@/lib/api/graph.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { ListState } from "../ui/Card.tsx";

/** The drag payload of a roster member: only drops of this type open the contract form. */
export const MEMBER_MIME = "application/x-teamhub-member";

/** Where a roster member may be dropped: the graph, and the empty team's start drawn over it. */
export function useMemberDrop(onDropMember: (member: string) => void) {
  return useMemo(
    () => ({
      onDragOver: (e: DragEvent) => {
        if (!e.dataTransfer.types.includes(MEMBER_MIME)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      },
      onDrop: (e: DragEvent) => {
        const member = e.dataTransfer.getData(MEMBER_MIME);
        if (!member) return;
        e.preventDefault();
        onDropMember(member);
      },
    }),
    [onDropMember],
  );
}

type Entry = { name: string; role: string; status: string | null; contracts: number };

/** Roster members plus anyone contracts are assigned to (an assignee need not have joined). */
function entriesOf(roster: Array<{ name: string; role: string; status: string }>, contracts: ContractGraphNode[]): Entry[] {
  const count = new Map<string, number>();
  for (const c of contracts) count.set(c.assignee, (count.get(c.assignee) ?? 0) + 1);
  const entries = new Map<string, Entry>(roster.map((m) => [m.name, { name: m.name, role: m.role, status: m.status, contracts: count.get(m.name) ?? 0 }]));
  for (const [name, n] of count) if (!entries.has(name)) entries.set(name, { name, role: "", status: null, contracts: n });
  return [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Drag a member onto the canvas (or use its + button) to open a contract form for them; an empty roster offers to start one. */
export function RosterPanel({
  team,
  contracts,
  onNewContract,
  onStartMember,
}: {
  team: string;
  contracts: ContractGraphNode[];
  onNewContract: (member: string) => void;
  onStartMember: () => void;
}) {
  const roster = useRoster(team);
  const entries = entriesOf(roster.data ?? [], contracts);
  const onDragStart = (e: DragEvent, name: string) => {
    e.dataTransfer.setData(MEMBER_MIME, name);
    e.dataTransfer.setData("text/plain", name);
    e.dataTransfer.effectAllowed = "copy";
  };
  return (
    <section className="canvas-roster" aria-label="roster" data-testid="canvas-roster">
      <h2>Roster</h2>
      <p className="hint muted">Drag a member onto the canvas to give them a contract.</p>
      <ListState loading={roster.isLoading} error={roster.error} empty={entries.length === 0} hint="Nobody on the roster yet." />
      {roster.data && entries.length === 0 && (
        <button type="button" onClick={onStartMember} data-testid="roster-start-member">
          Start a team member
        </button>
      )}
      <ul className="plain">
        {entries.map((m) => (
          <li
            key={m.name}
            className="roster-member"
            draggable
            onDragStart={(e) => onDragStart(e, m.name)}
            data-testid={`member-${m.name}`}
            data-member={m.name}
          >
            <div className="roster-member-text">
              <strong>{m.name}</strong>
              <span className="muted">{[m.role, m.status ?? "not on the roster"].filter(Boolean).join(" · ")}</span>
              <span className="muted">
                {m.contracts} contract{m.contracts === 1 ? "" : "s"}
              </span>
            </div>
            <button
              type="button"
              className="ghost"
              aria-label={`new contract for ${m.name}`}
              title={`New contract for ${m.name}`}
              onClick={() => onNewContract(m.name)}
            >
              +
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
