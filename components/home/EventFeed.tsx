import type { HubEvent } from "@/lib/api/events.ts";

export function EventFeed({ events }: { events: HubEvent[] }) {
  return (
    <ul className="feed">
      {events.map((e) => (
        <li key={e.id} data-testid="event">
          <span className="muted mono">#{e.id}</span>
          <span className="mono">{e.type}</span>
          <span>
            <span className="mono">{e.subject.replace(/^[a-z_]+:/, "")}</span>
            {"to" in e.payload && typeof e.payload.to === "string" && <> → {e.payload.to}</>}
            <span className="muted">
              {" "}
              by {e.principal} · {e.at.toLocaleTimeString()}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
