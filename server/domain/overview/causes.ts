/**
 * Grouping needs-attention by cause (docs/overview.md): a list of 29 stale artifacts is one change
 * upstream, and a person acts on the change, not on each artifact. Each group says its cause in
 * words, counts all its items and carries the head of them; the largest group comes first.
 */
import type { CauseGroup, StaleCause } from "../../../lib/api/overview.ts";
import type { StaleArtifact } from "../../../lib/api/lineage.ts";
import { staleCauseText } from "../../../lib/stale-reason.ts";
import { BLOCKED_PREFIX } from "../budgets/charge.ts";

// The overview shows the head of each list; the pages behind its links show the rest.
export const ATTENTION_LIMIT = 50;

const largestFirst = <G extends { cause: string; count: number }>(a: G, b: G) => b.count - a.count || a.cause.localeCompare(b.cause);

/** Items in their given order within each group; at most ATTENTION_LIMIT groups of at most ATTENTION_LIMIT items, every item counted. */
export function groupByCause<T>(items: T[], causeOf: (item: T) => string): CauseGroup<T>[] {
  const groups = new Map<string, CauseGroup<T>>();
  for (const item of items) {
    const cause = causeOf(item);
    const g = groups.get(cause) ?? groups.set(cause, { cause, count: 0, items: [] }).get(cause)!;
    g.count++;
    if (g.items.length < ATTENTION_LIMIT) g.items.push(item);
  }
  return [...groups.values()].sort(largestFirst).slice(0, ATTENTION_LIMIT);
}

/**
 * One group per upstream version change: the root version and what its artifact has now (or who
 * invalidated it). A transitive reason names the real root (docs/lineage.md), so everything
 * downstream of one change lands in that change's group, however long its path.
 */
export function staleCauses(stale: Iterable<StaleArtifact>): StaleCause[] {
  const groups = new Map<string, StaleCause>();
  for (const artifact of stale) {
    const seen = new Set<string>();
    for (const r of artifact.reasons) {
      const cause = staleCauseText(r);
      // Two inputs carrying the same change make the artifact stale once for it.
      if (seen.has(cause)) continue;
      seen.add(cause);
      const current = r.kind === "invalidated" ? null : r.current;
      const g = groups.get(cause) ?? groups.set(cause, { cause, kind: r.kind, root: r.root, current, count: 0, items: [] }).get(cause)!;
      g.count++;
      if (g.items.length < ATTENTION_LIMIT) g.items.push(artifact);
    }
  }
  return [...groups.values()].sort(largestFirst).slice(0, ATTENTION_LIMIT);
}

/** A session's problem sentence (server/domain/sessions/problems.ts) by what kind of trouble it names. */
export function problemCause(problem: string): string {
  if (problem.startsWith(BLOCKED_PREFIX)) return "blocked by a budget";
  if (/^(cost|turn|time) limit:/.test(problem)) return "stopped by a limit";
  if (problem.startsWith("last turn failed:")) return "last turn failed";
  return "process failed";
}
