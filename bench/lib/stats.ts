/** Latency summaries and target verdicts, formatted the same way for every figure. */
export type Summary = { count: number; totalMs: number; opsPerSec: number; p50: number; p99: number };

/** The sample `q` of the way up already sorted samples (0.99: the p99). */
const at = (sorted: ArrayLike<number>, q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** The sample `q` of the way up (0.95: the p95). */
export const quantile = (samples: readonly number[], q: number) => at(Float64Array.from(samples).sort(), q);

export function summarize(latenciesMs: Float64Array): Summary {
  const sorted = Float64Array.from(latenciesMs).sort();
  const totalMs = latenciesMs.reduce((a, b) => a + b, 0);
  return { count: sorted.length, totalMs, opsPerSec: (sorted.length * 1000) / totalMs, p50: at(sorted, 0.5), p99: at(sorted, 0.99) };
}

/** The middle value (the upper one of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The round whose ratio is the median, its ratio and every round's: what a figure that alternates rounds reports. */
export function medianRound<R>(rounds: readonly R[], ratioOf: (round: R) => number): { ratio: number; each: number[]; round: R } {
  const each = rounds.map(ratioOf);
  const ratio = median(each);
  return { ratio, each, round: rounds[each.indexOf(ratio)] };
}

export const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 10 ? `${v.toFixed(0)} ms` : `${v.toFixed(2)} ms`);
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** `1.04x`: a figure against its baseline. */
export const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}x`;

/** `[target < 5 ms: PASS]` */
export const target = (label: string, ok: boolean) => `[target ${label}: ${ok ? "PASS" : "MISS"}]`;
