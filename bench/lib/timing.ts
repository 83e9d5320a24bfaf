/** Timing on the monotonic clock (performance.now), one sample per call. */

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Latency of each of `n` sequential calls; `fn` gets the call's index. */
export async function samples(n: number, fn: (i: number) => Promise<unknown>): Promise<Float64Array> {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out[i] = performance.now() - t0;
  }
  return out;
}
