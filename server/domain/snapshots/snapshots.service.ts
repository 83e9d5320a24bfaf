/**
 * Snapshots (docs/domain.md#snapshots): take, list, get, delete. Taking one is cheap: it stores pointers to immutable
 * artifact versions and the coordination state, never artifact data.
 */
import type { ListSnapshotsInput, SnapshotDetail, SnapshotMeta, SnapshotPage, SnapshotRefInput, TakeSnapshotInput } from "../../../lib/api/snapshots.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { captureCode, teamWorkTrees } from "./code.ts";
import { deleteSnapshotRow, listSnapshotMeta, loadSnapshot, writeSnapshot } from "./snapshot-store.ts";

/**
 * The team's work trees are checkpointed first (git cannot run inside the transaction): a work tree made between
 * that and the transaction is not in the snapshot; one removed meanwhile is (its commit stays pinned).
 */
export async function takeSnapshot(deps: DomainDeps, actor: Principal, input: TakeSnapshotInput): Promise<SnapshotMeta> {
  const rows = await deps.db.read((sql) => teamWorkTrees(sql, input.team));
  const code = rows.length > 0 ? await captureCode(rows, "at a snapshot") : undefined;
  return deps.db.write("snapshot.create", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    return writeSnapshot(tx, actor, input.team, { id: input.id, label: input.label, kind: "manual" }, undefined, code);
  });
}

export async function listSnapshots(deps: DomainDeps, input: ListSnapshotsInput): Promise<SnapshotPage> {
  return deps.db.read((sql) => listSnapshotMeta(sql, input.team, input));
}

export async function getSnapshot(deps: DomainDeps, input: SnapshotRefInput): Promise<SnapshotDetail> {
  return deps.db.read(async (sql) => {
    const { meta, state } = await loadSnapshot(sql, input.team, input.id);
    return { ...meta, state };
  });
}

export async function deleteSnapshot(deps: DomainDeps, actor: Principal, input: SnapshotRefInput): Promise<{ id: string; deleted: true }> {
  return deps.db.write("snapshot.delete", actor.name, async (tx) => {
    await authorize(tx, actor, "snapshot.delete", { team: input.team });
    await ensureTeam(tx, input.team);
    await deleteSnapshotRow(tx, input.team, input.id);
    await tx.emit({ teamId: input.team, type: "snapshot.deleted", subject: `snapshot:${input.id}`, payload: { id: input.id } });
    return { id: input.id, deleted: true as const };
  });
}
