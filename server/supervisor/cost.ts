/**
 * Turning the CLI's cumulative `total_cost_usd` into per-turn costs. The total is per process,
 * and after `--resume` older CLIs (≤ 2.1.197) restart it at zero while newer ones continue from
 * the conversation's saved total; the first result after a resume is where they differ.
 */
export type CostTracker = { lastTotal: number; resumed: boolean; priorConversationCost: number; cliVersion: string | null };

export const freshTracker = (resumed: boolean, priorConversationCost: number): CostTracker => ({
  lastTotal: 0,
  resumed,
  priorConversationCost,
  cliVersion: null,
});

function versionAtMost(version: string, max: [number, number, number]): boolean {
  const parts = version
    .split(/[.\s]/)
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== max[i]) return (parts[i] ?? 0) < max[i];
  }
  return true;
}

/** The cost of the turn that produced this result; updates the tracker. */
export function costDelta(t: CostTracker, total: number): number {
  let base = t.lastTotal;
  if (t.resumed && t.lastTotal === 0) {
    const restartsAtZero = t.cliVersion !== null && versionAtMost(t.cliVersion, [2, 1, 197]);
    // A continuing total already contains what the conversation cost before this process.
    if (!restartsAtZero && total >= t.priorConversationCost) base = t.priorConversationCost;
  }
  t.lastTotal = total;
  t.resumed = false;
  return Math.max(0, total - base);
}
