/**
 * Rollback and replay (§8). Both run in one transaction: an automatic snapshot of the state
 * now (so the rewind itself can be undone), the snapshot's state restored, versions published
 * since it marked rolled_back (kept, readable by number), then every open contract resolves
 * again and the members whose contracts moved are told. Replay applies overrides in between.
 */
import type { WriteTx } from "../../db/database.ts";
import type { ReplayInput, SnapshotRefInput } from "../../../lib/api/snapshots.ts";
import { formatRef } from "../artifacts/refs.ts";
import { Resolution } from "../contracts/resolver.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { contractMoves, notifyAssignees, type ContractMove, type ContractPoint } from "./notify.ts";
import { applyOverrides, assertOverridable, type Overridden, type Overrides } from "./overrides.ts";
import { restoreArtifacts, restoreCoordination, type VersionChange } from "./restore.ts";
import { loadSnapshot, writeSnapshot, type SnapshotKind } from "./snapshot-store.ts";
import { captureState } from "./state.ts";

// Lists in events and summaries stop here; counts always tell the full number.
const LIST_CAP = 1000;
const capped = <T>(list: T[]): T[] => list.slice(0, LIST_CAP);

export type RewindSummary = {
  team: string;
  snapshot: string;
  /** The automatic snapshot of the state before: roll back to it to undo this. */
  autoSnapshot: string;
  rolledBackVersions: string[];
  rolledBackCount: number;
  /** Versions rolled back after the capture that are active again. */
  reactivatedVersions: string[];
  reactivatedCount: number;
  contractsChanged: ContractMove[];
  contractsChangedCount: number;
  membersNotified: number;
  /** Messages a team reset archived under this snapshot, back in their inboxes. */
  messagesRestored: number;
  /** Replay only: the fields each override really changed, old → new. */
  overridden: Overridden;
};

type Rewind = { autoKind: Extract<SnapshotKind, "pre-rollback" | "pre-replay">; what: string; overrides: Overrides };

/** Every open contract of the team goes through resolution again, against the restored state. */
async function reresolve(tx: WriteTx, team: string): Promise<void> {
  const open = await tx.all<{ pk: number }>(`SELECT "pk" FROM "Contract" WHERE "teamId" = ? AND "status" IN ('pending','ready','in_progress') ORDER BY "pk"`, [team]);
  const resolution = new Resolution(tx, team);
  for (const c of open) resolution.enqueue(c.pk);
  await resolution.drain();
}

async function emitRolledBackArtifacts(tx: WriteTx, team: string, snapshotId: string, rolledBack: VersionChange[], current: Map<string, number | null>): Promise<void> {
  const byArtifact = new Map<string, number[]>();
  for (const v of rolledBack) {
    const versions = byArtifact.get(v.artifactId);
    if (versions) versions.push(v.version);
    else byArtifact.set(v.artifactId, [v.version]);
  }
  for (const [artifactId, versions] of byArtifact) {
    await tx.emit({
      teamId: team,
      type: "artifact.rolled_back",
      subject: `artifact:${artifactId}`,
      payload: { artifactId, versions, snapshot: snapshotId, currentVersion: current.get(artifactId) ?? null },
    });
  }
}

async function rewind(tx: WriteTx, actor: Principal, input: SnapshotRefInput, how: Rewind): Promise<RewindSummary> {
  const team = input.team;
  await ensureTeam(tx, team);
  const target = await loadSnapshot(tx, team, input.id);
  assertOverridable(how.overrides, target.state.contracts, input.id);
  const before = await captureState(tx, team);
  const auto = await writeSnapshot(tx, actor, team, { kind: how.autoKind, label: `before the ${how.what} '${input.id}'` }, before);

  await restoreCoordination(tx, team, target.state, before, tx.now.getTime() - target.meta.createdAt.getTime());
  const versions = await restoreArtifacts(tx, team, target.state, before.artifacts.rolledBackSeqs);
  const messagesRestored =
    target.meta.kind === "pre-reset"
      ? (await tx.run(`UPDATE "Message" SET "archivedAt" = NULL, "archivedBy" = NULL WHERE "teamId" = ? AND "archivedBy" = ?`, [team, input.id])).changes
      : 0;
  const overridden = await applyOverrides(tx, team, how.overrides);
  await reresolve(tx, team);

  const after = await tx.all<ContractPoint>(`SELECT "id","status","assignee" FROM "Contract" WHERE "teamId" = ?`, [team]);
  const moves = contractMoves(before.contracts, after);
  const membersNotified = await notifyAssignees(tx, actor, team, moves, `The ${how.what} '${input.id}' by ${actor.name}`);
  const current = new Map(target.state.artifacts.index.map((a) => [a.id, a.version]));
  await emitRolledBackArtifacts(tx, team, input.id, versions.rolledBack, current);
  return {
    team,
    snapshot: input.id,
    autoSnapshot: auto.id,
    rolledBackVersions: capped(versions.rolledBack.map(formatRef)),
    rolledBackCount: versions.rolledBack.length,
    reactivatedVersions: capped(versions.reactivated.map(formatRef)),
    reactivatedCount: versions.reactivated.length,
    contractsChanged: capped(moves),
    contractsChangedCount: moves.length,
    membersNotified,
    messagesRestored,
    overridden,
  };
}

const eventPayload = (s: RewindSummary) => ({
  id: s.snapshot,
  autoSnapshot: s.autoSnapshot,
  rolledBackVersions: s.rolledBackVersions,
  rolledBackCount: s.rolledBackCount,
  reactivatedVersions: s.reactivatedVersions,
  contractsChanged: s.contractsChanged.map((m) => m.id),
  contractsChangedCount: s.contractsChangedCount,
});

export async function rollback(deps: DomainDeps, actor: Principal, input: SnapshotRefInput): Promise<RewindSummary> {
  return deps.db.write("snapshot.rollback", actor.name, async (tx) => {
    await authorize(tx, actor, "snapshot.rollback", { team: input.team });
    const summary = await rewind(tx, actor, input, { autoKind: "pre-rollback", what: "rollback to snapshot", overrides: {} });
    await tx.emit({ teamId: input.team, type: "snapshot.rolled_back", subject: `snapshot:${input.id}`, payload: eventPayload(summary) });
    return summary;
  });
}

export async function replay(deps: DomainDeps, actor: Principal, input: ReplayInput): Promise<RewindSummary> {
  return deps.db.write("snapshot.replay", actor.name, async (tx) => {
    await authorize(tx, actor, "snapshot.replay", { team: input.team });
    const summary = await rewind(tx, actor, input, { autoKind: "pre-replay", what: "replay of snapshot", overrides: input.overrides });
    await tx.emit({ teamId: input.team, type: "snapshot.replayed", subject: `snapshot:${input.id}`, payload: { ...eventPayload(summary), overridden: summary.overridden } });
    return summary;
  });
}
