/** A benchmark that measured a wrong result measured nothing: checks throw, and the run exits non-zero. */
export function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`correctness check failed: ${what}`);
}
