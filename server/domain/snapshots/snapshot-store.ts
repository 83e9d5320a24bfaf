/**
 * Writing and loading Snapshot rows. A snapshot is immutable once written: its state is the
 * gzipped JSON of captureState, `size` its compressed bytes. Automatic snapshots (before a
 * rollback, replay or reset) are ordinary rows with their own kind, so each can be undone.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, raw, sql } from "../../db/sql.ts";
import type { SnapshotRow } from "../../db/rows.ts";
import { conflict, notFound } from "../../errors.ts";
import type { Principal } from "../principal.ts";
import { COUNTS_PREFIX_BYTES, countsFromPrefix, decodeState, encodeState } from "./codec.ts";
import { captureState } from "./state.ts";
import type { CodeState } from "../../../lib/api/worktrees.ts";
import { SnapshotKind, type SnapshotMeta, type SnapshotState, type StateCounts } from "../../../lib/api/snapshots.ts";

type MetaRow = Pick<SnapshotRow, "teamId" | "id" | "label" | "kind" | "createdBy" | "createdAt" | "maxSeq" | "lastEventId" | "size">;

const META_COLUMNS = raw(`"teamId","id","label","kind","createdBy","createdAt","maxSeq","lastEventId","size"`);

const toMeta = (r: MetaRow, counts: StateCounts): SnapshotMeta => ({
  id: r.id,
  team: r.teamId,
  label: r.label,
  kind: SnapshotKind.parse(r.kind),
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  maxSeq: r.maxSeq,
  lastEventId: r.lastEventId,
  size: r.size,
  counts,
});

/** `<prefix>-<yyyymmdd-hhmmss>-<4 hex>`, in UTC. */
function generatedId(prefix: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${prefix}-${stamp}-${randomBytes(2).toString("hex")}`;
}

async function exists(s: Sql, team: string, id: string): Promise<boolean> {
  return (await s.get(sql`SELECT 1 FROM "Snapshot" WHERE "teamId" = ${team} AND "id" = ${id}`)) !== undefined;
}

/** Stores `state` (or the team's state now) as a new snapshot and emits snapshot.created. */
export async function writeSnapshot(
  tx: WriteTx,
  actor: Principal,
  team: string,
  spec: { id?: string; label: string; kind: SnapshotKind },
  state?: SnapshotState,
  code?: CodeState[],
): Promise<SnapshotMeta> {
  let id = spec.id;
  if (id && (await exists(tx, team, id))) throw conflict(`snapshot '${id}' already exists in team '${team}'`, { field: "id", rule: "unique" });
  while (!id || (await exists(tx, team, id))) id = generatedId(spec.kind === "manual" ? "snap" : spec.kind, tx.now);
  const captured = state ?? { ...(await captureState(tx, team)), ...(code ? { code } : {}) };
  const blob = encodeState(captured);
  await tx.run(
    sql`INSERT INTO "Snapshot" (${META_COLUMNS},"state") VALUES (${team},${id},${spec.label},${spec.kind},${actor.name},${tx.now},${captured.maxSeq},${captured.lastEventId},${blob.length},${blob})`,
  );
  const meta = toMeta(
    {
      teamId: team,
      id,
      label: spec.label,
      kind: spec.kind,
      createdBy: actor.name,
      createdAt: tx.now,
      maxSeq: captured.maxSeq,
      lastEventId: captured.lastEventId,
      size: blob.length,
    },
    captured.counts,
  );
  const { team: _team, createdAt: _at, ...payload } = meta;
  await tx.emit({ teamId: team, type: "snapshot.created", subject: `snapshot:${id}`, payload });
  return meta;
}

export async function loadSnapshot(s: Sql, team: string, id: string, field = "id"): Promise<{ meta: SnapshotMeta; state: SnapshotState }> {
  const row = await s.get<MetaRow & Pick<SnapshotRow, "state">>(sql`SELECT ${META_COLUMNS},"state" FROM "Snapshot" WHERE "teamId" = ${team} AND "id" = ${id}`);
  if (!row) throw notFound("snapshot", id, field);
  const state = decodeState(row.state);
  return { meta: toMeta(row, state.counts), state };
}

/** Metadata, newest first; counts come from the head of each compressed state. */
export async function listSnapshotMeta(
  s: Sql,
  team: string,
  page: { limit: number; cursor?: number },
): Promise<{ items: SnapshotMeta[]; nextCursor: number | null }> {
  const rows = await s.all<MetaRow & Pick<SnapshotRow, "pk"> & { head: Buffer }>(
    sql`SELECT "pk",${META_COLUMNS}, substr("state", 1, ${raw(String(COUNTS_PREFIX_BYTES))}) AS "head" FROM "Snapshot"
     WHERE "teamId" = ${team} ${page.cursor !== undefined ? sql`AND "pk" < ${page.cursor}` : EMPTY} ORDER BY "pk" DESC LIMIT ${page.limit + 1}`,
  );
  const items = rows.slice(0, page.limit).map((r) => toMeta(r, countsFromPrefix(r.head)));
  return { items, nextCursor: rows.length > page.limit ? rows[page.limit - 1].pk : null };
}

export async function deleteSnapshotRow(tx: WriteTx, team: string, id: string): Promise<void> {
  const r = await tx.run(sql`DELETE FROM "Snapshot" WHERE "teamId" = ${team} AND "id" = ${id}`);
  if (r.changes === 0) throw notFound("snapshot", id, "id");
}
