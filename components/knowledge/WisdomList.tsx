"use client";

import type { WisdomView } from "@/lib/api/knowledge.ts";
import { When } from "../ui/When.tsx";

/** The journal, newest last (docs/knowledge.md#wisdom): entries are never edited, so each reads as it was written. */
export function WisdomList({ items }: { items: WisdomView[] }) {
  return (
    <ol className="wisdom">
      {items.map((w) => (
        <li key={w.id} data-testid={`wisdom-${w.id}`} className={`wisdom-${w.kind}`}>
          <p>
            <span className={`kind kind-${w.kind}`}>{w.kind}</span> <strong>{w.title}</strong>{" "}
            <span className="muted">
              #{w.id} · {w.author} · <When at={w.createdAt} />
            </span>
          </p>
          <p className="body">{w.body}</p>
          {w.rationale && <p className="muted">Why: {w.rationale}</p>}
          {w.alternatives.length > 0 && <p className="muted">Rejected: {w.alternatives.join("; ")}</p>}
          {w.examples.length > 0 && (
            <ul className="examples">
              {w.examples.map((e, i) => (
                <li key={i} className="mono">
                  {e}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
