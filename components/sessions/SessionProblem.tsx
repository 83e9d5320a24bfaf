/** What is wrong with a session, in the hub's words; `clip` keeps it to one line (the whole text in the tooltip). */
/** `alertKey`: the alert this shows too, whose toast then steps aside (components/shell/Toasts.tsx). */
export function SessionProblem({ problem, clip, testId, alertKey }: { problem: string | null; clip?: boolean; testId?: string; alertKey?: string }) {
  if (!problem) return null;
  return (
    <div className={clip ? "problem clip" : "problem"} title={clip ? problem : undefined} data-testid={testId} data-alert-key={alertKey}>
      <span aria-hidden="true">⚠ </span>
      {problem}
    </div>
  );
}
