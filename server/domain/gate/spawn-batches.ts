/**
 * Gate enforcement for team_spawn (docs/domain.md#gate-enforcement). Spawns less than 5 s apart form one batch; the first
 * batch is free and each later one needs a phase gate passed since the previous batch began
 * (gates cannot be banked ahead). Counters live in GateState, so a restart changes nothing.
 */
import type { WriteTx } from "../../db/database.ts";
import { DomainError } from "../../errors.ts";
import { readGate, writeGate } from "./gate-state.ts";

export const BATCH_GAP_MS = 5000;

/** Records a spawn at `now`; refuses (precondition_failed) a new batch that no gate has cleared. */
export async function recordSpawnBatch(tx: WriteTx, team: string, now: Date): Promise<{ batch: number; newBatch: boolean }> {
  const g = await readGate(tx, team);
  const newBatch = !g.lastSpawnAt || now.getTime() - g.lastSpawnAt.getTime() > BATCH_GAP_MS;
  if (newBatch && g.spawnBatchCount > 0 && g.gateCount <= g.gatesAtLastBatch) {
    const example = `phase_gate({team: "${team}", phase_completing: "Phase ${g.spawnBatchCount}", phase_starting: "Phase ${g.spawnBatchCount + 1}", expected_artifacts: ["<artifact the last phase produced>"]})`;
    throw new DomainError(
      "precondition_failed",
      `phase gate required: team '${team}' has started ${g.spawnBatchCount} spawn batch(es) and no phase_gate has passed since batch ${g.spawnBatchCount} began. ` +
        `Verify the previous phase before spawning more workers, for example: ${example}`,
      { team, spawnBatchCount: g.spawnBatchCount, gateCount: g.gateCount, example },
    );
  }
  const batch = newBatch ? g.spawnBatchCount + 1 : g.spawnBatchCount;
  await writeGate(tx, team, { ...g, spawnBatchCount: batch, gatesAtLastBatch: newBatch ? g.gateCount : g.gatesAtLastBatch, lastSpawnAt: now });
  return { batch, newBatch };
}
