import type { StaleArtifact, StaleReason } from "@/lib/queries/artifacts.ts";

const artifactOf = (ref: string) => ref.split("@v")[0];

/** Why a version is stale, in one sentence (§6). */
export function staleReasonText(r: StaleReason): string {
  if (r.kind === "superseded") {
    return `built on ${r.input}, but ${artifactOf(r.input)} is ${r.current === null ? "rolled back entirely" : `now at v${r.current}`}`;
  }
  if (r.kind === "upstream_stale") return `its input ${r.input} is itself stale`;
  return `invalidated by ${r.markedBy}: ${r.reason}`;
}

/** A "stale" badge that names its reasons on hover (and to screen readers); nothing when fresh. */
export function StaleBadge({ stale }: { stale: StaleArtifact | undefined }) {
  if (!stale) return null;
  const why = stale.reasons.map(staleReasonText).join("; ");
  return (
    <span className="badge stale" title={why} aria-label={`stale: ${why}`} data-testid="stale-badge">
      stale
    </span>
  );
}
