/**
 * The team's phase-gate counters (docs/domain.md#phase-gate), kept in the database so a restart loses nothing (the
 * reference kept them in a Map). A team without a row has never passed a gate nor spawned.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { GateStateRow } from "../../db/rows.ts";

export type GateCounters = Omit<GateStateRow, "teamId">;

const NO_GATES: GateCounters = { gateCount: 0, gatesAtLastBatch: 0, spawnBatchCount: 0, lastSpawnAt: null, lastGateAt: null };

export async function readGate(s: Sql, team: string): Promise<GateCounters> {
  const row = await s.get<GateCounters>(
    sql`SELECT "gateCount","gatesAtLastBatch","spawnBatchCount","lastSpawnAt","lastGateAt" FROM "GateState" WHERE "teamId" = ${team}`,
  );
  return row ?? { ...NO_GATES };
}

export async function writeGate(tx: WriteTx, team: string, g: GateCounters): Promise<void> {
  await tx.run(
    sql`INSERT INTO "GateState" ("teamId","gateCount","gatesAtLastBatch","spawnBatchCount","lastSpawnAt","lastGateAt") VALUES (${team},${g.gateCount},${g.gatesAtLastBatch},${g.spawnBatchCount},${g.lastSpawnAt},${g.lastGateAt})
     ON CONFLICT ("teamId") DO UPDATE SET "gateCount" = excluded."gateCount", "gatesAtLastBatch" = excluded."gatesAtLastBatch", "spawnBatchCount" = excluded."spawnBatchCount",
       "lastSpawnAt" = excluded."lastSpawnAt", "lastGateAt" = excluded."lastGateAt"`,
  );
}
