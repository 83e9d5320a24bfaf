/**
 * The command palette's matching (docs/dashboard.md#the-palette): the query's letters in order within an entry's label
 * (so "apdv" finds "api-dev"), or every word of the query starting a word of its text (a contract's title, a member's
 * role, a message: "create user" finds "Create User API"). Ranked by how tight the match is, then the most recent
 * first; with no query, actions first, then the most recent. Pure, for tests.
 */
export type PaletteKind = "action" | "page" | "session" | "member" | "contract" | "artifact" | "pipeline" | "snapshot" | "message";

/** What an action does, carried out by the palette (components/shell/PaletteActions.tsx). */
export type PaletteAction =
  | { type: "allow"; session: string; approvalId: number }
  | { type: "new-contract"; member: string }
  | { type: "raise-budget"; scope: "team" | "member" | "contract"; target: string | null; unit: "usd" | "tokens" }
  | { type: "take-snapshot" }
  | { type: "start-member" };

export type PaletteEntry = {
  kind: PaletteKind;
  label: string;
  detail: string;
  /** Searched by words besides the label: a title, a role, a message's text. */
  text?: string;
  /** When it last changed (ms); the more recent first among equal matches. */
  at?: number;
  href?: string;
  action?: PaletteAction;
};

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

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Every query word starts a word of the text: 20; every one is inside the text: 60; else null. */
export function textScore(query: string, text: string): number | null {
  const q = wordsOf(query);
  if (q.length === 0) return null;
  const words = wordsOf(text);
  if (q.every((w) => words.some((t) => t.startsWith(w)))) return 20;
  const whole = text.toLowerCase();
  return q.every((w) => whole.includes(w)) ? 60 : null;
}

export function entryScore(query: string, e: PaletteEntry): number | null {
  const scores = [matchScore(query, e.label), textScore(query, e.text ? `${e.label} ${e.text}` : e.label)].filter((s): s is number => s !== null);
  return scores.length ? Math.min(...scores) : null;
}

/** The best `limit` entries for the query: tightest first, then the most recent, then in their given order. */
export function rankEntries(query: string, entries: PaletteEntry[], limit = 12): PaletteEntry[] {
  const empty = query.trim() === "";
  return entries
    .map((entry, i) => ({ entry, i, score: empty ? (entry.kind === "action" ? 0 : entry.at === undefined ? 2 : 1) : entryScore(query, entry) }))
    .filter((x): x is { entry: PaletteEntry; i: number; score: number } => x.score !== null)
    .sort((a, b) => a.score - b.score || (b.entry.at ?? -Infinity) - (a.entry.at ?? -Infinity) || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.entry);
}
