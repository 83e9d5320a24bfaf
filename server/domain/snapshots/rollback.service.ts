/**
 * Rollback and replay (docs/domain.md#rollback). Both run in one transaction: an automatic snapshot of the state
 * now (so the rewind itself can be undone), the snapshot's state restored, versions published
 * since it marked rolled_back (kept, readable by number), then every open contract resolves
 * again and the members whose contracts moved are told. Replay applies overrides in between and
 * re-runs the overridden contracts and everything downstream of them (rerun.ts).
 *
 * A preview is the same command written with `dryRun`: it runs every step and rolls back, so
 * what it reports is exactly what the command would do (docs/replay.md).
 */
import { isDeepStrictEqual } from "node:util";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow } from "../../db/rows.ts";
import type { Entities, ReplayInput, RewindPreview, RewindSummary, SnapshotKind, SnapshotRefInput, SnapshotState } from "../../../lib/api/snapshots.ts";
import { formatRef } from "../artifacts/refs.ts";
import { Resolution } from "../contracts/resolver.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { contractMoves, notifyAssignees, type ContractPoint } from "./notify.ts";
import { applyOverrides, assertOverridable, type Overrides } from "./overrides.ts";
import { producersOf, reRunSet, startReRuns } from "./rerun.ts";
import { restoreArtifacts, restoreCoordination, type VersionChange } from "./restore.ts";
import { loadSnapshot, writeSnapshot } from "./snapshot-store.ts";
import { captureState } from "./state.ts";
import { applyCode, captureCode, planCode, previewMoves, recordBranches, teamWorkTrees, type CodePlan } from "./code.ts";
import type { Sql } from "../../db/connection.ts";
import type { CodeMove, CodeState } from "../../../lib/api/worktrees.ts";

// Lists in events and summaries stop here; counts always tell the full number.
const LIST_CAP = 1000;
const capped = <T>(list: T[]): T[] => list.slice(0, LIST_CAP);

type Rewind = { autoKind: Extract<SnapshotKind, "pre-rollback" | "pre-replay">; what: string; overrides: Overrides };
/** The work trees' side, done before the transaction: their state just before (for the undo snapshot) and what was done. */
type CodeDone = { saved: CodeState[] | undefined; moves: CodeMove[] };
export type RewindOptions = { dryRun?: boolean };

const idsOf = (list: Array<{ id: string }>) => new Set(list.map((e) => e.id));
const minus = (a: Array<{ id: string }>, b: Set<string>) => a.filter((e) => !b.has(e.id)).map((e) => e.id);
const entities = (contracts: string[], pipelines: string[]): Entities => ({
  contracts: capped(contracts),
  contractsCount: contracts.length,
  pipelines: capped(pipelines),
  pipelinesCount: pipelines.length,
});

/** What restoring `target` over `now` takes away, brings back and changes, by id. */
function structuralChanges(now: SnapshotState, target: SnapshotState): Pick<RewindSummary, "removed" | "restored" | "pipelinesChanged"> {
  const then = { contracts: idsOf(target.contracts), pipelines: idsOf(target.pipelines) };
  const there = { contracts: idsOf(now.contracts), pipelines: idsOf(now.pipelines) };
  const current = new Map(now.pipelines.map((p) => [p.id, p]));
  const changed = target.pipelines.filter((p) => {
    const c = current.get(p.id);
    return c && (c.status !== p.status || !isDeepStrictEqual(c.rules, p.rules));
  });
  return {
    removed: entities(minus(now.contracts, then.contracts), minus(now.pipelines, then.pipelines)),
    restored: entities(minus(target.contracts, there.contracts), minus(target.pipelines, there.pipelines)),
    pipelinesChanged: capped(changed.map((p) => p.id)),
  };
}

/** Every open contract of the team goes through resolution again, against the restored state. */
async function reresolve(tx: WriteTx, team: string): Promise<void> {
  const open = await tx.all<Pick<ContractRow, "pk">>(
    sql`SELECT "pk" FROM "Contract" WHERE "teamId" = ${team} AND "status" IN ('pending','ready','in_progress') ORDER BY "pk"`,
  );
  const resolution = new Resolution(tx, team);
  for (const c of open) resolution.enqueue(c.pk);
  await resolution.drain();
}

async function emitRolledBackArtifacts(
  tx: WriteTx,
  team: string,
  snapshotId: string,
  rolledBack: VersionChange[],
  current: Map<string, number | null>,
): Promise<void> {
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

async function rewind(tx: WriteTx, actor: Principal, input: SnapshotRefInput, how: Rewind, code: CodeDone): Promise<RewindSummary> {
  const team = input.team;
  await ensureTeam(tx, team);
  const target = await loadSnapshot(tx, team, input.id);
  assertOverridable(how.overrides, target.state.contracts, input.id);
  const before = await captureState(tx, team);
  const auto = await writeSnapshot(
    tx,
    actor,
    team,
    { kind: how.autoKind, label: `before the ${how.what} '${input.id}'` },
    code.saved ? { ...before, code: code.saved } : before,
  );

  await restoreCoordination(tx, team, target.state, before, tx.now.getTime() - target.meta.createdAt.getTime());
  const versions = await restoreArtifacts(tx, team, target.state, before.artifacts.rolledBackSeqs);
  const messagesRestored =
    target.meta.kind === "pre-reset"
      ? (await tx.run(sql`UPDATE "Message" SET "archivedAt" = NULL, "archivedBy" = NULL WHERE "teamId" = ${team} AND "archivedBy" = ${input.id}`)).changes
      : 0;
  const overridden = await applyOverrides(tx, team, how.overrides);
  const producers = await producersOf(tx, team, target.state.contracts);
  const steps = reRunSet(target.state.contracts, producers, Object.keys(how.overrides));
  const runs = await startReRuns(tx, team, steps, producers, `the ${how.what} '${input.id}'`);
  await reresolve(tx, team);

  const after = await tx.all<ContractPoint>(sql`SELECT "id","status","assignee" FROM "Contract" WHERE "teamId" = ${team}`);
  const statusBefore = new Map(before.contracts.map((c) => [c.id, c.status]));
  const statusAfter = new Map(after.map((c) => [c.id, c.status]));
  const reRun = runs.map((r) => ({ ...r, from: statusBefore.get(r.id) ?? null, to: statusAfter.get(r.id)! }));
  const moves = contractMoves(before.contracts, after);
  const membersNotified = await notifyAssignees(tx, actor, team, moves, `The ${how.what} '${input.id}' by ${actor.name}`);
  const current = new Map(target.state.artifacts.index.map((a) => [a.id, a.version]));
  await emitRolledBackArtifacts(tx, team, input.id, versions.rolledBack, current);
  return {
    team,
    snapshot: input.id,
    dryRun: tx.dryRun,
    autoSnapshot: auto.id,
    rolledBackVersions: capped(versions.rolledBack.map(formatRef)),
    rolledBackCount: versions.rolledBack.length,
    reactivatedVersions: capped(versions.reactivated.map(formatRef)),
    reactivatedCount: versions.reactivated.length,
    reRun: capped(reRun),
    reRunCount: reRun.length,
    ...structuralChanges(before, target.state),
    contractsChanged: capped(moves),
    contractsChangedCount: moves.length,
    membersNotified,
    messagesRestored,
    overridden,
    code: code.moves,
  };
}

const eventPayload = (s: RewindSummary) => ({
  id: s.snapshot,
  autoSnapshot: s.autoSnapshot,
  rolledBackVersions: s.rolledBackVersions,
  rolledBackCount: s.rolledBackCount,
  reactivatedVersions: s.reactivatedVersions,
  removed: s.removed,
  restored: s.restored,
  contractsChanged: s.contractsChanged.map((m) => m.id),
  contractsChangedCount: s.contractsChangedCount,
  code: s.code,
});

/** The sessions that re-run a contract of the replay: they get a fresh branch from the snapshot's commit. */
async function reRunAssignees(s: Sql, team: string, state: SnapshotState, overrides: Overrides): Promise<Set<string>> {
  if (Object.keys(overrides).length === 0) return new Set();
  const steps = reRunSet(state.contracts, await producersOf(s, team, state.contracts), Object.keys(overrides));
  const assignee = new Map(state.contracts.map((c) => [c.id, c.assignee]));
  return new Set(steps.map((step) => overrides[step.id]?.assignee ?? assignee.get(step.id)!));
}

type Op = "snapshot.rollback" | "snapshot.replay";

/**
 * The work trees first (docs/worktrees.md#code-in-snapshots), then the one transaction. Checked before git runs:
 * the right, the snapshot and the overrides, so a refused rewind touches no file. A preview moves nothing in git: it
 * reports the plan, reading each work tree to tell restored from unchanged.
 */
async function runRewind(
  deps: DomainDeps,
  actor: Principal,
  input: ReplayInput,
  how: Rewind,
  op: Op,
  options: RewindOptions,
  finish: (tx: WriteTx, summary: RewindSummary) => Promise<void>,
): Promise<RewindSummary> {
  const { plan, rows } = await deps.db.read(async (s) => {
    await authorize(s, actor, op, { team: input.team });
    const target = await loadSnapshot(s, input.team, input.id);
    assertOverridable(how.overrides, target.state.contracts, input.id);
    const plan: CodePlan = await planCode(s, input.team, target.state.code, await reRunAssignees(s, input.team, target.state, how.overrides));
    return { plan, rows: await teamWorkTrees(s, input.team) };
  });
  const transaction = (code: CodeDone) =>
    deps.db.write(
      op,
      actor.name,
      async (tx) => {
        await authorize(tx, actor, op, { team: input.team });
        const summary = await rewind(tx, actor, input, how, code);
        if (!tx.dryRun) await recordBranches(tx, plan);
        await finish(tx, summary);
        return summary;
      },
      { dryRun: options.dryRun },
    );
  if (options.dryRun) return transaction({ saved: undefined, moves: await previewMoves(plan) });
  const why = `the ${how.what} '${input.id}'`;
  const saved = rows.length > 0 ? await captureCode(rows, `before ${why}`) : undefined;
  const applied = await applyCode(plan, saved ?? [], why);
  try {
    return await transaction({ saved, moves: applied.moves });
  } catch (e) {
    await applied.undo();
    throw e;
  }
}

/** A preview (`dryRun`) needs the same right as the rollback: it runs the same command, under the same write lock. */
export async function rollback(deps: DomainDeps, actor: Principal, input: SnapshotRefInput, options: RewindOptions = {}): Promise<RewindSummary> {
  const how: Rewind = { autoKind: "pre-rollback", what: "rollback to snapshot", overrides: {} };
  return runRewind(deps, actor, { ...input, overrides: {} }, how, "snapshot.rollback", options, async (tx, summary) => {
    await tx.emit({ teamId: input.team, type: "snapshot.rolled_back", subject: `snapshot:${input.id}`, payload: eventPayload(summary) });
  });
}

export async function replay(deps: DomainDeps, actor: Principal, input: ReplayInput, options: RewindOptions = {}): Promise<RewindSummary> {
  const how: Rewind = { autoKind: "pre-replay", what: "replay of snapshot", overrides: input.overrides };
  return runRewind(deps, actor, input, how, "snapshot.replay", options, async (tx, summary) => {
    const payload = { ...eventPayload(summary), overridden: summary.overridden, reRun: summary.reRun.map((r) => r.id), reRunCount: summary.reRunCount };
    await tx.emit({ teamId: input.team, type: "snapshot.replayed", subject: `snapshot:${input.id}`, payload });
  });
}

const preview = ({ autoSnapshot: _unsaved, ...summary }: RewindSummary): RewindPreview => summary;

export const rollbackPreview = async (deps: DomainDeps, actor: Principal, input: SnapshotRefInput) =>
  preview(await rollback(deps, actor, input, { dryRun: true }));
export const replayPreview = async (deps: DomainDeps, actor: Principal, input: ReplayInput) => preview(await replay(deps, actor, input, { dryRun: true }));
