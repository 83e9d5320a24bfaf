import type { WriteTx } from "../../db/database.ts";

/** A contract state change a command caused, directly or through a cascade. */
export type Effect = { contractId: string; from: string; to: string; reason: string | null };

/** The contract changes made so far in this transaction, in order: what a caller sees happen. */
export function effectsOf(tx: WriteTx): Effect[] {
  return tx.emitted
    .filter((e) => e.type === "contract.status_changed")
    .map((e) => ({
      contractId: String(e.payload.id),
      from: String(e.payload.from),
      to: String(e.payload.to),
      reason: (e.payload.reason as string | null) ?? null,
    }));
}
