import type { ReactNode } from "react";

export function Card({ title, children, testId, wide }: { title: string; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <section className={wide ? "card wide" : "card"} aria-label={title} data-testid={testId}>
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
