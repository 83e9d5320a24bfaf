"use client";

import { useHubs } from "@/lib/queries/settings.ts";
import { ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { useNow } from "../sessions/useNow.ts";

// The session badges' colours: running, ended on purpose, gone wrong.
const STATUS_CLASS = { live: "idle", stopped: "stopped", lost: "error" } as const;

/** The hubs sharing the database (docs/hubs.md): which is alive, when each last beat, and how many sessions it runs. */
export function HubsHealth() {
  const hubs = useHubs();
  const now = useNow(1000);
  const rows = hubs.data ?? [];
  return (
    <div className="stack">
      <ListState loading={hubs.isLoading} error={hubs.error} empty={rows.length === 0} hint="No hub has registered yet." />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table data-testid="hubs">
            <thead>
              <tr>
                <th>Hub</th>
                <th>Status</th>
                <th>URL</th>
                <th>Heartbeat</th>
                <th className="num">Sessions</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((h) => (
                <tr key={h.id} data-testid={`hub-${h.id}`}>
                  <td className="mono">
                    {h.id}
                    {h.self && <span className="muted"> (this hub)</span>}
                  </td>
                  <td>
                    <span className={`badge ${STATUS_CLASS[h.status]}`}>{h.status}</span>
                  </td>
                  <td className="mono">{h.url}</td>
                  <td>{h.status === "live" ? `${Math.max(0, Math.round((now - h.heartbeatAt.getTime()) / 1000))} s ago` : "—"}</td>
                  <td className="num">{h.liveSessions}</td>
                  <td>
                    <When at={h.startedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
