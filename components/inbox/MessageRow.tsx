import type { TeamMessage } from "@/lib/api/chat.ts";
import type { Grouped } from "@/lib/group-deliveries.ts";
import { When } from "../ui/When.tsx";
import { KindBadge } from "./KindBadge.tsx";

/** Who has read a delivery: one recipient's state, or how many of a broadcast's recipients. */
function readState(g: Grouped<TeamMessage>) {
  const read = g.rows.filter((r) => r.readAt !== null).length;
  if (g.rows.length === 1) return read ? "read" : "unread";
  return `read by ${read} of ${g.rows.length}`;
}

/** One message of the team's conversation (a broadcast's deliveries as one). */
export function MessageRow({ group }: { group: Grouped<TeamMessage> }) {
  const m = group.first;
  return (
    <li className="message" data-testid={`team-message-${m.id}`}>
      <div className="meta">
        <strong>{m.from}</strong> → {[...group.to].sort().join(", ")} <KindBadge kind={m.kind} />
        {m.replyTo && <span className="muted"> re #{m.replyTo}</span>}
        {m.kind === "ask" && (m.replyId ? <span className="muted"> · answered by #{m.replyId}</span> : <span className="badge awaiting">awaiting reply</span>)}
        <span className="spacer" />
        <span className="muted">
          {readState(group)}
          {m.archived && " · archived"} · #{m.id} · <When at={m.sentAt} />
        </span>
      </div>
      <p className="text">{m.text}</p>
    </li>
  );
}
