import type { StaleArtifact } from "@/lib/api/lineage.ts";
import { staleReasonText } from "@/lib/stale-reason.ts";

/** A "stale" badge that names its reasons on hover (and to screen readers); nothing when fresh. */
export function StaleBadge({ stale }: { stale: StaleArtifact | undefined }) {
  if (!stale) return null;
  const why = stale.reasons.map(staleReasonText).join("\n");
  return (
    <span className="badge stale" title={why} aria-label={`stale: ${why}`} data-testid="stale-badge">
      stale
    </span>
  );
}
