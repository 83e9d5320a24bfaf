"use client";

import type { MemberState, StateUpdateView } from "@/lib/api/knowledge.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";

const refText = (u: StateUpdateView) => (u.ref ? `${u.ref.artifactId}@v${u.ref.version}` : null);

function Update({ u }: { u: StateUpdateView }) {
  const ref = refText(u);
  return (
    <div className="state-update">
      <p>
        <StatusBadge status={u.status} /> <span className="muted">{u.verification}</span> · {u.task}
        {ref && (
          <>
            {" "}
            ·{" "}
            <a href={`/artifacts/${encodeURIComponent(u.ref!.artifactId)}?version=${u.ref!.version}`} className="mono">
              {ref}
            </a>
          </>
        )}{" "}
        <span className="muted">
          <When at={u.createdAt} />
        </span>
      </p>
      {u.keyFindings.length > 0 && (
        <ul className="findings">
          {u.keyFindings.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      )}
      {u.decisions.map((d, i) => (
        <p key={i} className="decision">
          <strong>Decided:</strong> {d.decision} <span className="muted">— {d.rationale}</span>
        </p>
      ))}
      {u.filesModified.length > 0 && <p className="mono muted files">{u.filesModified.join(", ")}</p>}
    </div>
  );
}

/** Each member's newest state update, its earlier ones folded underneath (docs/knowledge.md#state-updates). */
export function TeamStateList({ members }: { members: MemberState[] }) {
  return (
    <ul className="team-state">
      {members.map((m) => (
        <li key={m.member} data-testid={`state-${m.member}`}>
          <h3>
            {m.member}
            {m.role && <span className="muted"> ({m.role})</span>}
          </h3>
          <Update u={m.latest} />
          {m.history.length > 0 && (
            <details>
              <summary className="muted">{m.history.length} earlier</summary>
              {m.history.map((h) => (
                <Update key={h.id} u={h} />
              ))}
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
