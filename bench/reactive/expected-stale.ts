/**
 * Which artifacts are stale (docs/domain.md#staleness) in the planned team, worked out from the plan alone: a current
 * version that pinned an input's older version is stale (superseded), and so is one whose input
 * is itself stale (through it, back to a superseded root). Layers are visited in order, so every
 * input is decided first. staleArtifacts must return exactly this, reasons included.
 */
import { ARTIFACTS, VERSIONS, artifactId, inputsOf, type TeamPlan } from "./team-plan.ts";

/** Artifact id → its reasons, sorted: `superseded <root>` for a superseded input, `superseded via <input>` for a stale one. */
export type ExpectedStale = Map<string, string[]>;

export function expectedStale(plan: TeamPlan): ExpectedStale {
  const stale = new Set<number>();
  const out: ExpectedStale = new Map();
  for (let a = 0; a < ARTIFACTS; a++) {
    const reasons: string[] = [];
    for (const [source, version] of inputsOf(plan, a, VERSIONS)) {
      if (version !== VERSIONS) reasons.push(`superseded ${artifactId(source)}@v${version}`);
      else if (stale.has(source)) reasons.push(`superseded via ${artifactId(source)}@v${VERSIONS}`);
    }
    if (reasons.length === 0) continue;
    stale.add(a);
    out.set(artifactId(a), reasons.sort());
  }
  return out;
}

export const directlyStale = (expected: ExpectedStale) =>
  [...expected.values()].filter((reasons) => reasons.some((r) => !r.startsWith("superseded via"))).length;
