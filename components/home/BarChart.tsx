"use client";

import Link from "next/link";
import { total, useSort } from "../ui/useSort.tsx";
import { useWidth } from "./useWidth.ts";

/**
 * `limit`: a budget, drawn as a line across the bar's row (red bar once the value reaches it).
 * `note`: what the value covers when that is not obvious ("2026-11"), in the tooltip and the table.
 */
export type Bar = { label: string; value: number; href?: string; limit?: number | null; note?: string };

const ROW = 24;
const VALUE_W = 72;
// "$0.4200 of $2.00" needs the room.
const VALUE_LIMIT_W = 124;

const valueText = (b: Bar, format: (n: number) => string) => (b.limit == null ? format(b.value) : `${format(b.value)} of ${format(b.limit)}`);
const fullText = (b: Bar, format: (n: number) => string) => `${valueText(b, format)}${b.note ? ` in ${b.note}` : ""}`;

/**
 * The same numbers as a table, for screen readers and for anyone who wants them exact: sortable by
 * either column, with the column's total (every chart here is of costs, which add up).
 */
function ChartTable({ caption, bars, format, head }: { caption: string; bars: Bar[]; format: (n: number) => string; head: [string, string] }) {
  const { rows, header } = useSort<Bar, "label" | "value">(bars, (b, key) => b[key]);
  return (
    <details className="chart-table">
      <summary>{caption} as a table</summary>
      <table className="compact sortable">
        <thead>
          <tr>
            {header(head[0], "label")}
            {header(head[1], "value", true)}
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => (
            <tr key={b.label}>
              <td>{b.href ? <Link href={b.href}>{b.label}</Link> : b.label}</td>
              <td className="num">{fullText(b, format)}</td>
            </tr>
          ))}
        </tbody>
        {bars.length > 1 && (
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num">{format(total(bars, (b) => b.value))}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </details>
  );
}

/** Horizontal bars, one row per label (long names fit), drawn as inline SVG; a bar's limit is a dashed line on the same scale. */
export function BarChart({ title, bars, format, head }: { title: string; bars: Bar[]; format: (n: number) => string; head: [string, string] }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const max = Math.max(...bars.flatMap((b) => [b.value, b.limit ?? 0]), Number.EPSILON);
  const labelW = Math.min(170, Math.floor(width * 0.35));
  // As many characters as the label column holds (about 7 px each at the label's size), so a long name never runs off the left.
  const labelChars = Math.max(4, Math.floor((labelW - 8) / 7));
  const span = Math.max(10, width - labelW - (bars.some((b) => b.limit != null) ? VALUE_LIMIT_W : VALUE_W));
  const height = bars.length * ROW;
  const summary = `${title}: ${bars.map((b) => `${b.label} ${fullText(b, format)}`).join(", ")}`;
  return (
    <div ref={ref} className="chart">
      <svg width={width} height={height} role="img" aria-label={summary}>
        {bars.map((b, i) => {
          const y = i * ROW;
          const w = Math.max(1, (b.value / max) * span);
          const limitX = b.limit == null ? null : labelW + (b.limit / max) * span;
          return (
            <g key={b.label}>
              <title>{`${b.label}: ${fullText(b, format)}`}</title>
              <text x={labelW - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="central" className="chart-label">
                {b.label.length > labelChars ? `${b.label.slice(0, labelChars - 1)}…` : b.label}
              </text>
              <rect x={labelW} y={y + 4} width={w} height={ROW - 8} rx={2} className={b.limit != null && b.value >= b.limit ? "chart-bar over" : "chart-bar"} />
              {limitX !== null && <line x1={limitX} x2={limitX} y1={y + 1} y2={y + ROW - 1} className="chart-limit" />}
              <text x={Math.max(labelW + w, limitX ?? 0) + 6} y={y + ROW / 2} dominantBaseline="central" className="chart-value">
                {valueText(b, format)}
              </text>
            </g>
          );
        })}
      </svg>
      {bars.some((b) => b.limit != null) && (
        <p className="chart-legend">Dashed line: the budget{bars.some((b) => b.note) ? "; against a monthly budget, this month's cost" : ""}.</p>
      )}
      <ChartTable caption={title} bars={bars} format={format} head={head} />
    </div>
  );
}

const COL_H = 140;
// Wider columns than this read as a block, not as one day's bar.
const MAX_COL_W = 40;
const AXIS_H = 20;
const TOP = 16;

/** Vertical columns over an ordered axis (days); every few labels are shown, counted from the last, so they never collide. */
export function ColumnChart({
  title,
  bars,
  format,
  head,
  tick = (l) => l,
}: {
  title: string;
  bars: Bar[];
  format: (n: number) => string;
  head: [string, string];
  tick?: (label: string) => string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const max = Math.max(...bars.map((b) => b.value), Number.EPSILON);
  const slot = width / Math.max(1, bars.length);
  const colW = Math.max(1, Math.min(MAX_COL_W, slot * 0.7));
  const every = Math.max(1, Math.ceil(52 / slot));
  const nonZero = bars.filter((b) => b.value > 0);
  const summary = `${title}, ${bars[0]?.label ?? ""} to ${bars.at(-1)?.label ?? ""}: ${nonZero.map((b) => `${b.label} ${format(b.value)}`).join(", ")}${nonZero.length < bars.length ? `; other days ${format(0)}` : ""}`;
  return (
    <div ref={ref} className="chart">
      <svg width={width} height={TOP + COL_H + AXIS_H} role="img" aria-label={summary}>
        <text x={0} y={TOP - 4} className="chart-value">
          {format(max)}
        </text>
        <line x1={0} x2={width} y1={TOP} y2={TOP} className="chart-grid" />
        <line x1={0} x2={width} y1={TOP + COL_H} y2={TOP + COL_H} className="chart-axis" />
        {bars.map((b, i) => {
          const h = b.value > 0 ? Math.max(2, (b.value / max) * COL_H) : 0;
          const x = i * slot;
          return (
            <g key={b.label}>
              <title>{`${b.label}: ${format(b.value)}`}</title>
              <rect x={x + (slot - colW) / 2} y={TOP + COL_H - h} width={colW} height={h} rx={2} className="chart-bar" />
              {/* An invisible full-height target, so the tooltip works on empty days too. */}
              <rect x={x} y={TOP} width={slot} height={COL_H} fill="transparent" />
              {(bars.length - 1 - i) % every === 0 && (
                <text x={x + slot / 2} y={TOP + COL_H + 14} textAnchor="middle" className="chart-label">
                  {tick(b.label)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ChartTable caption={title} bars={bars} format={format} head={head} />
    </div>
  );
}
