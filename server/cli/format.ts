import type { Effect } from "../../lib/api/contracts.ts";

/** Plain-text renderings for people; `--json` prints the hub's response instead. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cells = rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? "—" : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n");
}

export function effects(list: Effect[] | undefined): string {
  if (!list?.length) return "";
  return `\n${list.map((e) => `  → ${e.contractId}: ${e.from} → ${e.to}${e.reason ? ` (${e.reason})` : ""}`).join("\n")}`;
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);
