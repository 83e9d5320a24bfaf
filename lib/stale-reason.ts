/**
 * A stale reason in words (docs/domain.md#staleness), the same on the CLI, the artifact pages, the canvas and the
 * overview: what happened to the root version, then the path from the stale version up to it.
 */
import type { StaleReason, StaleStep } from "./api/lineage.ts";

const artifactOf = (ref: string) => ref.split("@v")[0];

/** What happened to the root: "schema@v1 was superseded by schema@v2". */
export function staleCauseText(r: StaleReason): string {
  switch (r.kind) {
    case "superseded":
      return `${r.root} was superseded by ${r.current}`;
    case "rolled_back":
      return `${r.root} was rolled back (${r.current ? `${artifactOf(r.root)} is now at ${r.current}` : `${artifactOf(r.root)} has no active version`})`;
    case "invalidated":
      return `${r.root} was invalidated by ${r.markedBy}: ${r.reason}`;
  }
}

/** How one step reached its input. */
export const stepText = (s: StaleStep): string => (s.via === "derivedFrom" ? "derivedFrom" : `through contract ${s.contractId}'s pinned input`);

/** "tests@v1 ← api@v2 (derivedFrom) ← schema@v1 (through contract build-api's pinned input)"; empty for an empty path. */
export function stalePathText(path: StaleStep[]): string {
  if (path.length === 0) return "";
  return [path[0].version, ...path.map((s) => `${s.input} (${stepText(s)})`)].join(" ← ");
}

/** The cause, then the path when there is one. */
export function staleReasonText(r: StaleReason): string {
  return r.path.length === 0 ? staleCauseText(r) : `${staleCauseText(r)}; path: ${stalePathText(r.path)}`;
}
