/**
 * `position`: where a queued session stands in the admission queue, shown as "queued (#3)".
 * `problem`: what is wrong with it; such a badge never wears a healthy colour.
 */
export function StatusBadge({ status, position, problem }: { status: string; position?: number | null; problem?: string | null }) {
  return (
    <span className={`badge ${status}${problem ? " troubled" : ""}`} title={problem ?? undefined}>
      {status.replace("_", " ")}
      {position ? ` (#${position})` : ""}
    </span>
  );
}
