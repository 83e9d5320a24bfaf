/** Numbers as the dashboard shows them: money and durations. */

/** Dollars with cents, or with four decimals below a dollar, where session costs usually are. */
export const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}`;

/** "850 ms", "4.2 s", "3 min 05 s", "5 min", "2 h 10 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${pad(s % 60)} s` : `${s / 60} min`;
  const min = Math.floor((s % 3600) / 60);
  return min ? `${Math.floor(s / 3600)} h ${pad(min)} min` : `${Math.floor(s / 3600)} h`;
}

/** Dollars with cents, and up to four decimals only where cents would hide the amount: "$0.40", "$0.0089", "$2.00". */
export const dollars = (n: number) => `$${n.toFixed(4).replace(/(\.\d\d[1-9]*)0+$/, "$1")}`;

/** A countdown or a limit as a clock: "0:03", "5:00", "59:47", "1:00:00". */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return s < 3600 ? `${Math.floor(s / 60)}:${pad(s % 60)}` : `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** A count as "850", "4.25k", "120k", "1.2M": three significant digits at most, trailing zeros dropped. */
export function compactCount(n: number): string {
  const [scale, suffix] = Math.abs(n) >= 1e6 ? [1e6, "M"] : Math.abs(n) >= 1e3 ? [1e3, "k"] : [1, ""];
  const v = n / scale;
  const digits = scale === 1 ? 0 : Math.abs(v) < 10 ? 2 : Math.abs(v) < 100 ? 1 : 0;
  return `${Number(v.toFixed(digits))}${suffix}`;
}

/** Tokens as budgets show them: "120k tokens", "1 token". */
export const tokens = (n: number) => `${compactCount(n)} ${n === 1 ? "token" : "tokens"}`;

/** A price per million tokens as price lists write it: whole dollars bare, cents always two places ($5, $4.50, $0.075). */
export const perMTok = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(Math.max(2, (String(n).split(".")[1] ?? "").length))}`;
