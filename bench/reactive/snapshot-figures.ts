/**
 * Figures 4 and 5: snapshot, diff and rollback on the large team, and what a snapshot costs in
 * storage. A warm-up round (snapshot, diff, rollback) runs first on the unchanged team; its
 * rollback must change nothing, which also proves the generated state is one resolution leaves
 * alone. Then: snapshot, the changes of team-changes.ts, a second snapshot, both diffs, and the
 * rollback, which must bring back exactly the first snapshot's state.
 */
import { DiffInput, SnapshotRefInput, TakeSnapshotInput } from "../../lib/api/snapshots.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import type { StateDiff } from "../../lib/api/snapshots.ts";
import { diff } from "../../server/domain/snapshots/diff.ts";
import { rollback } from "../../server/domain/snapshots/rollback.service.ts";
import { takeSnapshot } from "../../server/domain/snapshots/snapshots.service.ts";
import { check } from "../lib/check.ts";
import { scalar } from "../lib/scalar.ts";
import { mb, ms, target } from "../lib/stats.ts";
import type { BenchHub } from "../lib/temp-db.ts";
import { timed } from "../lib/timing.ts";
import type { BigTeam } from "./big-team.ts";
import { CHANGED_CONTRACTS, NEW_VERSIONS, changeTeam } from "./team-changes.ts";

const MAX_MS = 2000;
const MAX_STORAGE_SHARE = 0.05;

const snapshot = (hub: BenchHub, id: string) => takeSnapshot(hub, OPERATOR, TakeSnapshotInput.parse({ id, label: `bench ${id}` }));
const diffOf = (hub: BenchHub, a: string, b = "current") => diff(hub, DiffInput.parse({ a, b }));
const rollbackTo = (hub: BenchHub, id: string) => rollback(hub, OPERATOR, SnapshotRefInput.parse({ id }));

const KINDS = ["contracts", "artifacts", "pipelines", "roster"] as const;
const changes = (d: StateDiff) => KINDS.map((k) => d[k].added.length + d[k].removed.length + d[k].changed.length).reduce((a, b) => a + b, 0);
const verdict = (elapsed: number) => target(`< ${MAX_MS / 1000} s`, elapsed < MAX_MS);

async function warmUp(hub: BenchHub): Promise<void> {
  await snapshot(hub, "warm-up");
  await diffOf(hub, "warm-up");
  const r = await rollbackTo(hub, "warm-up");
  check(
    r.rolledBackCount + r.reactivatedCount + r.contractsChangedCount === 0,
    `rolling back to a snapshot of the unchanged team moved ${r.contractsChangedCount} contracts, e.g. ${JSON.stringify(r.contractsChanged[0])}`,
  );
}

export async function snapshotFigures(hub: BenchHub, team: BigTeam): Promise<void> {
  await warmUp(hub);
  const before = await timed(() => snapshot(hub, "before"));
  await changeTeam(hub, team);
  const after = await timed(() => snapshot(hub, "after"));

  const toCurrent = await timed(() => diffOf(hub, "before"));
  const between = await timed(() => diffOf(hub, "before", "after"));
  const moved = toCurrent.value.contracts.changed.length;
  check(
    toCurrent.value.artifacts.changed.length === NEW_VERSIONS && moved >= CHANGED_CONTRACTS,
    `diff before → current: ${toCurrent.value.artifacts.changed.length} artifacts and ${moved} contracts changed, expected ${NEW_VERSIONS} and at least ${CHANGED_CONTRACTS}`,
  );
  check(
    JSON.stringify(KINDS.map((k) => between.value[k])) === JSON.stringify(KINDS.map((k) => toCurrent.value[k])),
    "diff before → after differs from diff before → current, with nothing changed in between",
  );

  const rewind = await timed(() => rollbackTo(hub, "before"));
  const r = rewind.value;
  check(
    r.rolledBackCount === NEW_VERSIONS && r.contractsChangedCount === moved,
    `rollback: ${r.rolledBackCount} versions rolled back and ${r.contractsChangedCount} contracts moved, expected ${NEW_VERSIONS} and ${moved}`,
  );
  const left = changes(await diffOf(hub, "before"));
  check(left === 0, `after the rollback, the team still differs from the snapshot in ${left} entities`);

  const { counts, size } = before.value;
  console.log(
    `reactive.snapshot: takeSnapshot of ${counts.contracts} contracts and ${counts.artifacts} artifact pointers in ${ms(before.ms)} ${verdict(before.ms)} (after the changes: ${ms(after.ms)})`,
  );
  console.log(
    `reactive.diff: snapshot vs current ${ms(toCurrent.ms)} ${verdict(toCurrent.ms)}, snapshot vs snapshot ${ms(between.ms)} ${verdict(between.ms)} ` +
      `(${moved} contracts and ${NEW_VERSIONS} artifacts changed field by field)`,
  );
  console.log(
    `reactive.rollback: back to the snapshot in ${ms(rewind.ms)} ${verdict(rewind.ms)} (automatic snapshot first; ${r.rolledBackCount} versions rolled back, ` +
      `${r.contractsChangedCount} contracts restored, every open contract re-resolved, ${r.membersNotified} members notified)`,
  );
  storageFigure(hub, size, before.value.maxSeq);
}

/** The snapshot's compressed state against the artifact data it points to (the versions it could see). */
function storageFigure(hub: BenchHub, snapshotBytes: number, maxSeq: number): void {
  const dataBytes = scalar(hub.sqlite.reader.raw, `SELECT SUM("size") FROM "ArtifactVersion" WHERE "seq" <= ?`, maxSeq);
  const share = snapshotBytes / dataBytes;
  console.log(
    `reactive.snapshot.storage: ${(snapshotBytes / 1024).toFixed(0)} KB compressed per snapshot = ${(share * 100).toFixed(2)}% of ${mb(dataBytes)} of artifact data ` +
      `${target(`< ${MAX_STORAGE_SHARE * 100}%`, share < MAX_STORAGE_SHARE)}`,
  );
}
