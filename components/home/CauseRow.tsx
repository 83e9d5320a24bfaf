import type { ReactNode } from "react";

/** Up to this many rows in all, every cause starts open; more, and only the causes this small do. */
const OPEN_ALL = 4;
const OPEN_SMALL = 3;

/** Whether a cause starts open, given how many cause rows the list has: a short list shows everything, a long one its small groups. */
export const openByDefault = (rows: number) => (g: { count: number }) => rows <= OPEN_ALL || g.count <= OPEN_SMALL;

/**
 * One cause of needs-attention as one row (docs/overview.md): the cause in words and how many it
 * holds; opening it lists them. `inline`: the items are short names that wrap side by side.
 */
export function CauseRow({
  group,
  open,
  unit,
  inline = false,
  testId,
  children,
}: {
  group: { cause: string; count: number; items: unknown[] };
  open: boolean;
  unit?: string;
  inline?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const hidden = group.count - group.items.length;
  return (
    <li className="cause-row" data-testid={testId}>
      <details open={open}>
        <summary>
          <span className="cause-text">{group.cause}</span>{" "}
          <span className="count">{unit ? `${group.count} ${unit}${group.count === 1 ? "" : "s"}` : group.count}</span>
        </summary>
        <ul className={inline ? "plain cause-items inline" : "plain cause-items"}>{children}</ul>
        {hidden > 0 && <p className="muted cause-more">and {hidden} more</p>}
      </details>
    </li>
  );
}
