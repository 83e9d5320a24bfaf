/**
 * Replay overrides (docs/domain.md#replay): `{contractId: {inputs?, assignee?, title?}}` applied to the restored
 * contracts before they resolve again. Only real changes are written, each as contract.updated
 * with old → new. Every overridden contract then re-runs (rerun.ts), so a run in progress that
 * changes hands starts over there too.
 */
import { isDeepStrictEqual } from "node:util";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { invalid } from "../../errors.ts";
import type { ContractOverride } from "../../../lib/api/snapshots.ts";
import { loadContract } from "../contracts/contracts.repo.ts";
import type { ContractState } from "./state.ts";

export type Overrides = Record<string, ContractOverride>;
type FieldChange = { old: unknown; new: unknown };
/** Per overridden contract, the fields that really changed. */
export type Overridden = Record<string, Record<string, FieldChange>>;

/** Refuses overrides for contracts the snapshot does not have, naming each one. */
export function assertOverridable(overrides: Overrides, contracts: ContractState[], snapshotId: string): void {
  const known = new Set(contracts.map((c) => c.id));
  const unknown = Object.keys(overrides).filter((id) => !known.has(id));
  if (unknown.length) {
    throw invalid(
      unknown.map((id) => ({ field: `overrides.${id}`, rule: "exists", message: `contract '${id}' is not in snapshot '${snapshotId}'`, received: id })),
    );
  }
}

export async function applyOverrides(tx: WriteTx, team: string, overrides: Overrides): Promise<Overridden> {
  const applied: Overridden = {};
  for (const [id, o] of Object.entries(overrides)) {
    const c = await loadContract(tx, team, id, `overrides.${id}`);
    const changes: Record<string, FieldChange> = {};
    if (o.inputs !== undefined && !isDeepStrictEqual(o.inputs, c.inputs)) changes.inputs = { old: c.inputs, new: o.inputs };
    if (o.assignee !== undefined && o.assignee !== c.assignee) changes.assignee = { old: c.assignee, new: o.assignee };
    if (o.title !== undefined && o.title !== c.title) changes.title = { old: c.title, new: o.title };
    if (Object.keys(changes).length === 0) continue;
    await tx.run(
      sql`UPDATE "Contract" SET "inputs" = ${JSON.stringify(o.inputs ?? c.inputs)}, "assignee" = ${o.assignee ?? c.assignee}, "title" = ${o.title ?? c.title}, "updatedAt" = ${tx.now} WHERE "pk" = ${c.pk}`,
    );
    await tx.emit({ teamId: team, type: "contract.updated", subject: `contract:${id}`, payload: { id, changes, reason: "replay override" } });
    applied[id] = changes;
  }
  return applied;
}
