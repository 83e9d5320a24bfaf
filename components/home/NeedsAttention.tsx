"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { Attention } from "@/lib/api/overview.ts";
import type { OverlapsView } from "@/lib/api/worktrees.ts";
import { changesAt } from "../code/links.ts";
import { staleReasonText } from "@/lib/stale-reason.ts";
import { dollars } from "@/lib/format.ts";
import { summarizeInput } from "../sessions/transcript-model.ts";
import { useNow } from "../sessions/useNow.ts";
import { When } from "../ui/When.tsx";

const sessionHref = (name: string) => `/sessions/${encodeURIComponent(name)}`;

function Group({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <section className="attention-group" aria-label={title}>
      <h3>
        {title} <span className="count">{count}</span>
      </h3>
      <ul className="plain">{children}</ul>
    </section>
  );
}

/**
 * Everything that waits for a person, each row linking to where it is acted on: the session page
 * for approvals and broken sessions, the canvas for failed contracts, the artifact for stale ones, each session's
 * Changes tab for a file two live sessions changed (a likely merge conflict).
 */
export function NeedsAttention({ attention: a, overlaps = [] }: { attention: Attention; overlaps?: OverlapsView["files"] }) {
  // The countdown is in minutes; a tick every 10 s keeps it right without rerendering every second.
  const now = useNow(10_000);
  const total =
    a.approvals.length +
    a.stalledSessions.length +
    a.sessionProblems.length +
    a.failedContracts.length +
    a.staleArtifacts.length +
    a.budgets.length +
    overlaps.length;
  if (total === 0) return <p className="empty">Nothing needs you right now.</p>;
  return (
    <div className="attention">
      <Group title="Approvals waiting" count={a.approvals.length}>
        {a.approvals.map((x) => (
          <li key={x.id} data-testid={`attention-approval-${x.id}`}>
            <Link href={sessionHref(x.session)}>
              <strong>{x.session}</strong> wants <strong>{x.toolName}</strong> <code>{summarizeInput(x.input, 60)}</code>
            </Link>
            <span className="muted"> · denied in {Math.max(0, Math.ceil((x.expiresAt.getTime() - now) / 60_000))} min unless decided</span>
          </li>
        ))}
      </Group>
      <Group title="Stalled sessions" count={a.stalledSessions.length}>
        {a.stalledSessions.map((x) => (
          <li key={x.name}>
            <Link href={sessionHref(x.name)}>{x.name}</Link>
            <span className="muted">
              {" "}
              · {x.status}, silent since <When at={x.stalledAt} />
            </span>
          </li>
        ))}
      </Group>
      <Group title="Sessions in trouble" count={a.sessionProblems.length}>
        {a.sessionProblems.map((x) => (
          <li key={x.name} data-testid={`attention-session-${x.name}`}>
            <Link href={sessionHref(x.name)}>{x.name}</Link>
            <span className="muted">
              {" "}
              · {x.status} <When at={x.updatedAt} />
            </span>
            <div className="problem clip" title={x.problem}>
              {x.problem}
            </div>
          </li>
        ))}
      </Group>
      <Group title="Failed contracts" count={a.failedContracts.length}>
        {a.failedContracts.map((x) => (
          <li key={x.id}>
            <Link href={`/canvas?contract=${encodeURIComponent(x.id)}`} className="mono">
              {x.id}
            </Link>{" "}
            <span>{x.title}</span>
            <span className="muted">
              {" "}
              · {x.assignee}
              {x.statusReason ? `: ${x.statusReason}` : ""}
            </span>
          </li>
        ))}
      </Group>
      <Group title="Budgets" count={a.budgets.length}>
        {a.budgets.map((x) => (
          <li key={`${x.scope}:${x.target ?? ""}`} data-testid={`attention-budget-${x.scope}-${x.target ?? x.team}`}>
            <strong>{x.scope === "team" ? `team ${x.team}` : `${x.scope} ${x.target}`}</strong>
            <span className="muted">
              {" "}
              · {dollars(x.spentUsd)} spent of {dollars(x.amountUsd)}
              {x.period === "month" ? ` in ${x.window}` : ""}
            </span>
            <div className="problem clip">
              {x.usedUp ? "used up: turns charged to it wait as blocked: budget" : `past its ${Math.round(x.warnAt * 100)}% warning`}
            </div>
          </li>
        ))}
      </Group>
      <Group title="Files changed by two sessions" count={overlaps.length}>
        {overlaps.map((f) => (
          <li key={`${f.repoDir}:${f.path}`} data-testid={`attention-overlap-${f.path}`}>
            <code title={f.repoDir}>{f.path}</code>
            <span className="muted"> · changed by </span>
            {f.sessions.map((name, i) => (
              <span key={name}>
                {i > 0 && ", "}
                <Link href={changesAt(name)}>{name}</Link>
              </span>
            ))}
          </li>
        ))}
      </Group>
      <Group title="Stale artifacts" count={a.staleArtifacts.length}>
        {a.staleArtifacts.map((x) => (
          <li key={x.artifactId}>
            <Link href={`/artifacts/${encodeURIComponent(x.artifactId)}`} className="mono">
              {x.artifactId}@v{x.version}
            </Link>
            <span className="muted"> · {x.reasons.map(staleReasonText).join(" · ")}</span>
          </li>
        ))}
      </Group>
    </div>
  );
}
