import type { WriteTx } from "../../db/database.ts";
import type { Effect } from "../../../lib/api/contracts.ts";

/** The contract changes made so far in this transaction, in order: what a caller sees happen. */
export function effectsOf(tx: WriteTx): Effect[] {
  return tx.emitted.flatMap((e) =>
    e.type === "contract.status_changed" ? [{ contractId: e.payload.id, from: e.payload.from, to: e.payload.to, reason: e.payload.reason }] : [],
  );
}
