/** `position`: where a queued session stands in the admission queue, shown as "queued (#3)". */
export function StatusBadge({ status, position }: { status: string; position?: number | null }) {
  return (
    <span className={`badge ${status}`}>
      {status.replace("_", " ")}
      {position ? ` (#${position})` : ""}
    </span>
  );
}
