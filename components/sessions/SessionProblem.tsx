/** What is wrong with a session, in the hub's words; `clip` keeps it to one line (the whole text in the tooltip). */
export function SessionProblem({ problem, clip, testId }: { problem: string | null; clip?: boolean; testId?: string }) {
  if (!problem) return null;
  return (
    <div className={clip ? "problem clip" : "problem"} title={clip ? problem : undefined} data-testid={testId}>
      <span aria-hidden="true">⚠ </span>
      {problem}
    </div>
  );
}
