import type { ReactNode } from "react";

// A cause this small shows its items at once; a larger one is a single row until opened.
const OPEN_SMALL = 3;

/**
 * One cause of needs-attention as one row (docs/overview.md): the cause in words and how many it
 * holds; opening it lists them. `inline`: the items are short names that wrap side by side.
 */
export function CauseRow({
  group,
  unit,
  inline = false,
  testId,
  children,
}: {
  group: { cause: string; count: number; items: unknown[] };
  unit?: string;
  inline?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const hidden = group.count - group.items.length;
  return (
    <li className="cause-row" data-testid={testId}>
      <details open={group.count <= OPEN_SMALL}>
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
