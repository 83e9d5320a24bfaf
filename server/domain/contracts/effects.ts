import type { WriteTx } from "../../db/database.ts";
import { Effect } from "../../../lib/api/contracts.ts";

/**
 * The contract changes made so far in this transaction, in order: what a caller sees happen.
 * Parsed, not cast: the payloads of `tx.emitted` are not typed per event yet.
 */
export function effectsOf(tx: WriteTx): Effect[] {
  return tx.emitted
    .filter((e) => e.type === "contract.status_changed")
    .map((e) => Effect.parse({ contractId: e.payload.id, from: e.payload.from, to: e.payload.to, reason: e.payload.reason ?? null }));
}
