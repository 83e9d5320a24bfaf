"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { Attention } from "@/lib/api/overview.ts";
import type { OverlapsView } from "@/lib/api/worktrees.ts";
import { changesAt } from "../code/links.ts";
import { staleReasonText } from "@/lib/stale-reason.ts";
import { duration } from "@/lib/format.ts";
import { amountOf, inUnit, spentOf } from "@/lib/budget-figures.ts";
import { summarizeInput } from "../sessions/transcript-model.ts";
import { useNow } from "../sessions/useNow.ts";
import { When } from "../ui/When.tsx";
import { DecideButtons } from "../approvals/DecideButtons.tsx";
import { budgetLabel, RaiseBudget } from "../fixes/RaiseBudget.tsx";
import { budgetKey } from "../shell/alerts.ts";
import { RetryTurn } from "../fixes/RetryTurn.tsx";
import { ReleaseAccount } from "../fixes/ReleaseAccount.tsx";
import { problemKindOf } from "@/lib/problem-kind.ts";
import { CauseRow } from "./CauseRow.tsx";

const sessionHref = (name: string) => `/sessions/${encodeURIComponent(name)}`;
const artifactHref = (id: string) => `/artifacts/${encodeURIComponent(id)}`;

type Grouped = Array<{ cause: string; count: number }>;
const countOf = (groups: Grouped) => groups.reduce((n, g) => n + g.count, 0);

/** One kind of attention: its heading counts every item, its rows are the causes. */
function Kind({ title, count, children }: { title: string; count: number; children: ReactNode }) {
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
 * Everything that waits for a person, one row per cause (docs/overview.md): a row opens to its
 * items, each linking to where it is acted on — the session page for approvals and broken
 * sessions, the canvas for failed contracts, the artifact for stale ones, each session's Changes
 * tab for a file two live sessions changed (a likely merge conflict). Small groups start open.
 */
export function NeedsAttention({ team, attention: a, overlaps = [] }: { team: string; attention: Attention; overlaps?: OverlapsView["files"] }) {
  // The countdown is in minutes; a tick every 10 s keeps it right without rerendering every second.
  const now = useNow(10_000);
  const groups = [a.approvals, a.stalledSessions, a.sessionProblems, a.failedContracts, a.staleArtifacts, a.budgets];
  if (groups.every((g) => g.length === 0) && overlaps.length === 0 && a.accounts.length === 0) return <p className="empty">Nothing needs you right now.</p>;
  return (
    <div className="attention">
      <Kind title="Usage limits" count={a.accounts.length}>
        {a.accounts.map((x) => (
          <li key={x.account} data-testid={`attention-account-${x.account}`} data-alert-key={`account:${x.account}`}>
            <strong>{x.label}</strong>
            <span className="muted">
              {" "}
              · {x.window ? `${x.window.replace(/_/g, "-")} window ` : ""}
              {x.status === "limited" ? "used up" : `${x.utilization === null ? "filling up" : `${Math.round(x.utilization * 100)}% used`}`}
              {x.resetsAt && (
                <>
                  {" "}
                  · resets at{" "}
                  <time dateTime={x.resetsAt.toISOString()} title={x.resetsAt.toLocaleString()}>
                    {x.resetsAt.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })}
                  </time>
                  {x.resetsAt.getTime() > now ? `, in ${duration(x.resetsAt.getTime() - now)}` : ""}
                </>
              )}
            </span>
            {x.status === "limited" && (
              <div className="problem">
                {x.held.length === 0 ? (
                  "no session of this team waits for it"
                ) : (
                  <>
                    holds{" "}
                    {x.held.map((name, i) => (
                      <span key={name}>
                        {i > 0 && ", "}
                        <Link href={sessionHref(name)}>{name}</Link>
                      </span>
                    ))}{" "}
                    until the reset
                  </>
                )}
              </div>
            )}
            {x.status === "limited" && <ReleaseAccount team={team} hold={x} />}
          </li>
        ))}
      </Kind>
      <Kind title="Approvals waiting" count={countOf(a.approvals)}>
        {a.approvals.map((g) => (
          <CauseRow key={g.cause} group={g} testId={`attention-approvals-${g.items[0]?.toolName}`}>
            {g.items.map((x) => (
              <li key={x.id} data-testid={`attention-approval-${x.id}`} data-alert-key={`approval:${x.id}`} className="attention-approval">
                <span className="attention-what" title={`${x.toolName}: ${summarizeInput(x.input, 2000)}`}>
                  <Link href={sessionHref(x.session)}>
                    <strong>{x.session}</strong> wants <strong>{x.toolName}</strong> <code>{summarizeInput(x.input, 120)}</code>
                  </Link>
                  <span className="muted"> · denied in {Math.max(0, Math.ceil((x.expiresAt.getTime() - now) / 60_000))} min unless decided</span>
                </span>
                <DecideButtons team={team} session={x.session} approvalId={x.id} toolName={x.toolName} input={x.input} />
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
      <Kind title="Stalled sessions" count={countOf(a.stalledSessions)}>
        {a.stalledSessions.map((g) => (
          <CauseRow key={g.cause} group={g}>
            {g.items.map((x) => (
              <li key={x.name} data-alert-key={`stalled:${x.name}`}>
                <Link href={sessionHref(x.name)}>{x.name}</Link>
                <span className="muted">
                  {" "}
                  · silent since <When at={x.stalledAt} />
                </span>
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
      <Kind title="Sessions in trouble" count={countOf(a.sessionProblems)}>
        {a.sessionProblems.map((g) => (
          <CauseRow key={g.cause} group={g}>
            {g.items.map((x) => (
              <li key={x.name} data-testid={`attention-session-${x.name}`} data-alert-key={`problem:${x.name}`}>
                <Link href={sessionHref(x.name)}>{x.name}</Link>
                <span className="muted">
                  {" "}
                  · {x.status} <When at={x.updatedAt} />
                </span>
                <div className="problem clip" title={x.problem}>
                  {x.problem}
                </div>
                {problemKindOf(x.problem) === "turn_failed" && <RetryTurn team={team} name={x.name} />}
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
      <Kind title="Failed contracts" count={countOf(a.failedContracts)}>
        {a.failedContracts.map((g) => (
          <CauseRow key={g.cause} group={g}>
            {g.items.map((x) => (
              <li key={x.id}>
                <Link href={`/canvas?contract=${encodeURIComponent(x.id)}`} className="mono">
                  {x.id}
                </Link>{" "}
                <span>{x.title}</span>
                <span className="muted"> · {x.assignee}</span>
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
      <Kind title="Budgets" count={countOf(a.budgets)}>
        {a.budgets.map((g) => (
          <CauseRow key={g.cause} group={g}>
            {g.items.map((x) => (
              <li
                key={`${x.scope}:${x.target ?? ""}:${x.unit}`}
                data-testid={`attention-budget-${x.scope}-${x.target ?? x.team}${x.unit === "tokens" ? "-tokens" : ""}`}
                data-alert-key={budgetKey(x)}
              >
                <Link href="/budgets">
                  <strong>{budgetLabel(x)}</strong>
                </Link>
                <span className="muted">
                  {" "}
                  · {inUnit(x.unit, spentOf(x))} spent of {inUnit(x.unit, amountOf(x))}
                  {x.period === "month" ? ` in ${x.window}` : ""}
                </span>
                <div className="problem clip">
                  {x.usedUp ? "used up: turns charged to it wait as blocked: budget" : `past its ${Math.round(x.warnAt * 100)}% warning`}
                </div>
                {x.usedUp && <RaiseBudget team={team} budget={x} />}
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
      <Kind title="Files changed by two sessions" count={overlaps.length}>
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
      </Kind>
      <Kind title="Stale artifacts" count={countOf(a.staleArtifacts)}>
        {a.staleArtifacts.map((g) => (
          <CauseRow key={g.cause} group={g} unit="artifact" testId={`attention-stale-${g.root}`} inline>
            {g.items.map((x) => (
              <li key={x.artifactId}>
                <Link href={artifactHref(x.artifactId)} className="mono" title={x.reasons.map(staleReasonText).join("\n")}>
                  {x.artifactId}@v{x.version}
                </Link>
              </li>
            ))}
          </CauseRow>
        ))}
      </Kind>
    </div>
  );
}
