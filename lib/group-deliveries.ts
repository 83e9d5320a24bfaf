/**
 * The hub stores one message row per recipient, so a broadcast to five members is five rows.
 * For reading a conversation they are one message: rows next to each other with the same
 * sender, kind, text and time become one entry with all their recipients.
 */
export type Delivery = { id: number; from: string; to: string; kind: string; text: string; sentAt: Date };
export type Grouped<T extends Delivery> = { first: T; rows: T[]; to: string[] };

export function groupDeliveries<T extends Delivery>(rows: T[]): Grouped<T>[] {
  const out: Grouped<T>[] = [];
  for (const row of rows) {
    const last = out.at(-1);
    if (
      last &&
      last.first.from === row.from &&
      last.first.kind === row.kind &&
      last.first.text === row.text &&
      last.first.sentAt.getTime() === row.sentAt.getTime()
    ) {
      last.rows.push(row);
      last.to.push(row.to);
    } else out.push({ first: row, rows: [row], to: [row.to] });
  }
  return out;
}
