/**
 * `position`: where a queued session stands in the admission queue, shown as "queued (#3)".
 * `problem`: what is wrong with it; such a badge never wears a healthy colour.
 */
/** How a state reads where its identifier does not (waiting_permission is waiting for a person's answer). */
const LABELS: Record<string, string> = { waiting_permission: "waiting for permission" };
export const statusLabel = (status: string) => LABELS[status] ?? status.replace("_", " ");

export function StatusBadge({ status, position, problem }: { status: string; position?: number | null; problem?: string | null }) {
  return (
    <span className={`badge ${status}${problem ? " troubled" : ""}`} title={problem ?? undefined}>
      {statusLabel(status)}
      {position ? ` (#${position})` : ""}
    </span>
  );
}
