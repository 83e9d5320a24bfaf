import type { ReactNode } from "react";

/** `id` makes the card a link target (`/settings#claude-code`). */
export function Card({ title, children, testId, wide, id }: { title: string; children: ReactNode; testId?: string; wide?: boolean; id?: string }) {
  return (
    <section className={wide ? "card wide" : "card"} aria-label={title} data-testid={testId} id={id}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Loading, error or empty: the three states a list can be in before it has rows. */
export function ListState({ loading, error, empty, hint }: { loading: boolean; error: unknown; empty: boolean; hint: ReactNode }) {
  if (loading) return <p className="empty">Loading…</p>;
  if (error) return <p className="error">Could not load: {(error as Error).message}</p>;
  if (empty) return <p className="empty">{hint}</p>;
  return null;
}
