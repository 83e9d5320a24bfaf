"use client";

import type { MemberView as Member } from "@/lib/api/roster.ts";
import type { SessionView } from "@/lib/api/sessions.ts";
import { When } from "../ui/When.tsx";
import { statusLabel } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Column = "name" | "role" | "status" | "task" | "seen" | "session";

/** A member's supervised session: the one it was spawned as, else the newest acting as it. */
const sessionOf = (m: Member, sessions: SessionView[]) =>
  sessions.find((s) => s.name === (m.sessionId ?? m.name)) ?? sessions.find((s) => s.principal === m.name);

/** The roster in the hub's order until a column header is clicked. */
export function RosterTable({ members, sessions, onMessage }: { members: Member[]; sessions: SessionView[]; onMessage: (name: string) => void }) {
  const valueOf = (m: Member, key: Column): SortValue => {
    switch (key) {
      case "name":
        return m.name;
      case "role":
        return m.role || null;
      case "status":
        return m.status;
      case "task":
        return m.currentTask;
      case "seen":
        return m.lastSeen.getTime();
      case "session":
        return sessionOf(m, sessions)?.name ?? null;
    }
  };
  const { rows, header } = useSort<Member, Column>(members, valueOf);
  return (
    <table className="roster sortable stack-on-phone" data-testid="roster">
      <thead>
        <tr>
          {header("Member", "name")}
          {header("Role", "role")}
          {header("Status", "status")}
          {header("Current task", "task")}
          {header("Last seen", "seen")}
          {header("Session", "session")}
          <th aria-label="actions" />
        </tr>
      </thead>
      <tbody>
        {rows.map((m) => {
          const s = sessionOf(m, sessions);
          return (
            <tr key={m.name} data-testid={`member-${m.name}`}>
              <td>{m.name}</td>
              <td>{m.role || "—"}</td>
              <td>
                <span className={`badge ${m.status}`}>{m.status}</span>
              </td>
              <td data-label="task">{m.currentTask ?? "—"}</td>
              <td data-label="seen">
                <When at={m.lastSeen} />
              </td>
              <td>
                {s ? (
                  <>
                    <span className="mono">{s.name}</span> <span className={`badge ${s.status}`}>{statusLabel(s.status)}</span>
                    {s.stalled && <span className="badge failed">stalled</span>}
                    {s.pendingApprovals > 0 && <span className="muted"> · {s.pendingApprovals} waiting for approval</span>}
                  </>
                ) : (
                  <span className="muted">no session</span>
                )}
              </td>
              <td>
                <button type="button" className="small" onClick={() => onMessage(m.name)} aria-label={`write to ${m.name}`}>
                  Write
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
