"use client";

import type { MemberState, StateUpdateView } from "@/lib/api/knowledge.ts";
import { RefLink } from "../artifacts/ArtifactLineage.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";

function Update({ team, u }: { team: string; u: StateUpdateView }) {
  return (
    <div className="state-update">
      <p>
        <StatusBadge status={u.status} /> <span className="muted">{u.verification}</span> · {u.task}
        {u.ref && (
          <>
            {" "}
            · <RefLink team={team} refText={`${u.ref.artifactId}@v${u.ref.version}`} />
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
export function TeamStateList({ team, members }: { team: string; members: MemberState[] }) {
  return (
    <ul className="team-state">
      {members.map((m) => (
        <li key={m.member} data-testid={`state-${m.member}`}>
          <h3>
            {m.member}
            {m.role && <span className="muted"> ({m.role})</span>}
          </h3>
          <Update team={team} u={m.latest} />
          {m.history.length > 0 && (
            <details>
              <summary className="muted">{m.history.length} earlier</summary>
              {m.history.map((h) => (
                <Update key={h.id} team={team} u={h} />
              ))}
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
