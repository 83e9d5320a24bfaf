/**
 * The command palette's matching: the query's letters in order within an entry's label (so "apdv" finds
 * "api-dev"), ranked by how tight the match is, labels starting with the query first. Pure, for tests.
 */
export type PaletteEntry = { kind: "page" | "session" | "contract" | "artifact"; label: string; detail: string; href: string };

/** Lower is better; null when the letters are not all there in order. */
export function matchScore(query: string, label: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, "");
  const l = label.toLowerCase();
  if (q === "") return 0;
  if (l.startsWith(q)) return 0;
  const at = l.indexOf(q);
  if (at >= 0) return 1 + at;
  let from = 0;
  let first = -1;
  let gaps = 0;
  for (const ch of q) {
    const i = l.indexOf(ch, from);
    if (i < 0) return null;
    if (first < 0) first = i;
    else gaps += i - from;
    from = i + 1;
  }
  return 100 + gaps * 10 + first;
}

/** The best `limit` entries for the query, ties kept in their given order (pages, then sessions, contracts, artifacts). */
export function rankEntries(query: string, entries: PaletteEntry[], limit = 12): PaletteEntry[] {
  return entries
    .map((entry, i) => ({ entry, i, score: matchScore(query, entry.label) }))
    .filter((x): x is { entry: PaletteEntry; i: number; score: number } => x.score !== null)
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.entry);
}
