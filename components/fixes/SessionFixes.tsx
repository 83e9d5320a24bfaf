"use client";

import Link from "next/link";
import { problemKindOf, stopReason } from "@/lib/problem-kind.ts";
import { useBudgets } from "@/lib/queries/budgets.ts";
import { useLifecycle } from "@/lib/queries/sessions.ts";
import { RaiseBudget } from "./RaiseBudget.tsx";
import { RetryTurn } from "./RetryTurn.tsx";

type Fixable = { name: string; team: string; status: string; problem: string | null; exitReason: string | null; principal?: string | null };

/** The used-up budgets a session's turns are charged to and that it can see: the team's and its member's. */
function BudgetBlocks({ team, member }: { team: string; member: string }) {
  const budgets = useBudgets(team);
  if (budgets.error) {
    return (
      <p className="muted fix">
        {budgets.error.message} (<Link href="/budgets">Budgets</Link>)
      </p>
    );
  }
  const blocking = (budgets.data ?? []).filter((b) => b.usedUp && (b.scope === "team" || (b.scope === "member" && b.target === member)));
  return (
    <>
      {blocking.map((b) => (
        <RaiseBudget key={`${b.scope}:${b.target ?? ""}:${b.unit}`} team={team} budget={b} />
      ))}
      {budgets.data && blocking.length === 0 && (
        <p className="muted fix">
          A contract&apos;s budget holds it: raise it on the <Link href="/budgets">Budgets</Link> page.
        </p>
      )}
    </>
  );
}

/** Resume beside an admission stop's reason: the same POST /api/sessions/{name}/resume as the controls. */
function ResumeYielded({ team, name, reason }: { team: string; name: string; reason: string }) {
  const lifecycle = useLifecycle(team, name);
  return (
    <div className="fix yielded" data-testid="session-yielded">
      <span>stopped: {reason}</span>
      <button type="button" className="small" disabled={lifecycle.isPending} onClick={() => lifecycle.mutate("resume")}>
        Resume
      </button>
      {lifecycle.error && (
        <span className="form-error" role="alert">
          {lifecycle.error.message}
        </span>
      )}
    </div>
  );
}

/**
 * The fix beside a session's problem (docs/dashboard.md#a-fix-beside-every-problem): Retry for a failed turn, the
 * used-up budget raised inline for a turn held by one, Resume for a session that gave its place to the admission
 * queue. Each is the API's own operation with its own check; nothing here decides who may.
 */
export function SessionFixes({ session: s }: { session: Fixable }) {
  const kind = problemKindOf(s.problem);
  const yielded = stopReason(s);
  return (
    <>
      {kind === "turn_failed" && <RetryTurn team={s.team} name={s.name} label="Retry the failed turn" />}
      {kind === "budget" && <BudgetBlocks team={s.team} member={s.principal ?? s.name} />}
      {yielded && <ResumeYielded team={s.team} name={s.name} reason={yielded} />}
    </>
  );
}
