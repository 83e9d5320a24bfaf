/**
 * Artifacts (docs/domain.md#artifacts): immutable, versioned, typed data. Always go through these functions: a publish
 * assigns the version number, validates the data, pins `derivedFrom`, writes lineage edges,
 * appends the event and resolves contracts, all in one transaction.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import {
  jsonColumn,
  type ArtifactReadRow,
  type ArtifactRow,
  type ArtifactTagRow,
  type ArtifactVersionRow,
  type LineageEdgeRow,
  type TeamRow,
} from "../../db/rows.ts";
import { DomainError, conflict, invalidField, notFound } from "../../errors.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import {
  VersionStatus,
  type ArtifactHistory,
  type ArtifactPage,
  type ArtifactReaders,
  type ArtifactRefInput,
  type ArtifactView,
  type GetArtifactInput,
  type HistoryInput,
  type ListArtifactsInput,
  type PublishArtifactInput,
  type PublishResult,
  type ReaderSummary,
  type VersionView,
} from "../../../lib/api/artifacts.ts";
import { Resolution, publishWatched } from "../contracts/resolver.ts";
import { effectsOf } from "../contracts/effects.ts";
import type { DomainDeps } from "../deps.ts";
import { computeStale } from "../lineage/compute-stale.ts";
import { emitStaleOnBump, previousActiveSeq, staleListenersOf } from "../lineage/staleness.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { formatRef, pinRefs, type PinnedRef } from "./refs.ts";
import { validateArtifactData } from "./type-registry.ts";
import { codeRefOf, publisherCode } from "./code-ref.ts";
import type { CodeState } from "../../../lib/api/worktrees.ts";
import { multiRow } from "../../db/multi-row.ts";
import { inList, join, raw, sql } from "../../db/sql.ts";

export const MAX_DATA_BYTES = 1024 * 1024;

/** The data as stored, refused past MAX_DATA_BYTES. */
function measured(input: PublishArtifactInput): { text: string; size: number } {
  const text = JSON.stringify(input.data);
  const size = Buffer.byteLength(text);
  if (size > MAX_DATA_BYTES) {
    throw new DomainError("too_large", `data: must be at most ${MAX_DATA_BYTES} bytes (1 MiB) of JSON; got ${size} bytes`, {
      issues: [{ field: "data", rule: "max_size", message: `must be at most ${MAX_DATA_BYTES} bytes`, received: size }],
    });
  }
  return { text, size };
}

export async function publishArtifact(deps: DomainDeps, actor: Principal, input: PublishArtifactInput): Promise<PublishResult> {
  const { text, size } = measured(input);
  // git before the transaction (it cannot run inside one): the publisher's work tree as it is now.
  const code = await publisherCode(deps, actor);
  return deps.db.write("artifact.publish", actor.name, (tx) => publishInTx(tx, actor, input, text, size, code), { team: input.team });
}

/** Publishing inside a caller's transaction (the Quick Start demo): no work tree is pinned, git cannot run inside one. */
export function publishArtifactInTx(tx: WriteTx, actor: Principal, input: PublishArtifactInput): Promise<PublishResult> {
  const { text, size } = measured(input);
  return publishInTx(tx, actor, input, text, size, null);
}

async function publishInTx(
  tx: WriteTx,
  actor: Principal,
  input: PublishArtifactInput,
  text: string,
  size: number,
  code: CodeState | null,
): Promise<PublishResult> {
  const team = input.team;
  const { artifact, latest } = await claimVersion(tx, input);
  if (artifact.type !== input.type) {
    throw invalidField("type", "immutable_type", `artifact '${input.id}' has type '${artifact.type}'; a new version cannot change it`, input.type);
  }
  if (input.expectedVersion !== undefined && input.expectedVersion !== latest) {
    throw conflict(`artifact '${input.id}' is at version ${latest}, not the expected ${input.expectedVersion}`, {
      field: "expectedVersion",
      expected: input.expectedVersion,
      actual: latest,
    });
  }
  await validateArtifactData(tx, team, input.type, input.data);
  if (input.contractId) {
    const c = await tx.get(sql`SELECT 1 FROM "Contract" WHERE "teamId" = ${team} AND "id" = ${input.contractId}`);
    if (!c) throw invalidField("contractId", "exists", `contract '${input.contractId}' does not exist in team '${team}'`, input.contractId);
  }
  const inputs = await pinInputs(tx, team, input.derivedFrom ?? []);
  const version = latest + 1;
  const inserted = await tx.get<Pick<ArtifactVersionRow, "seq">>(
    sql`INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","summary","publisher","sessionId","contractId","status","createdAt","codeCommit","codeBranch","codeCheckpoint")
     VALUES (${artifact.pk},${version},${text},${size},${input.summary ?? ""},${actor.name},${actor.sessionId ?? null},${input.contractId ?? null},'active',${tx.now},${code?.commit ?? null},${code?.branch ?? null},${code ? code.checkpoint : null}) RETURNING "seq"`,
  );
  const seq = inserted!.seq;
  const name = artifact.name;
  if (input.tags) await replaceTags(tx, artifact.pk, input.tags);
  await multiRow(
    tx,
    inputs.map((from) => sql`(${from.seq},${seq},'derived')`),
    (values) => sql`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind") VALUES ${values} ON CONFLICT DO NOTHING`,
  );
  const derivedFrom = inputs.map(formatRef);
  await tx.emit({
    teamId: team,
    type: "artifact.published",
    subject: `artifact:${input.id}@v${version}`,
    payload: {
      artifactId: input.id,
      version,
      seq,
      type: input.type,
      name,
      publisher: actor.name,
      contractId: input.contractId ?? null,
      derivedFrom,
      summary: input.summary ?? "",
      size,
    },
  });
  // artifact_stale (docs/domain.md#pipelines): what this version leaves behind. Costs one indexed query when no pipeline listens.
  if (version >= 2 && artifact.staleListeners === 1) {
    const previousSeq = await previousActiveSeq(tx, artifact.pk, version);
    if (previousSeq !== undefined) await emitStaleOnBump(tx, team, input.id, previousSeq, version);
  }
  const resolution = new Resolution(tx, team);
  // Most publishes are of an artifact no open contract watches (`publishWatched`, asked with its row): no lookup.
  if (artifact.watched === 1) await resolution.afterPublish(input.id, input.type);
  await resolution.drain();
  return {
    artifactId: input.id,
    version,
    seq,
    type: input.type,
    name,
    status: "active",
    summary: input.summary ?? "",
    size,
    publisher: actor.name,
    sessionId: actor.sessionId ?? null,
    contractId: input.contractId ?? null,
    derivedFrom,
    createdAt: tx.now,
    code: code && codeRefOf({ sessionId: actor.sessionId ?? null, codeCommit: code.commit, codeBranch: code.branch, codeCheckpoint: code.checkpoint ? 1 : 0 }),
    effects: effectsOf(tx),
  };
}

/** What a publish reads of its artifact's row: a narrow row, since every publish pays for each column's parsing. */
const CLAIMED_COLUMNS = sql`"pk","type","name","latestVersion"`;

type Claimed = Pick<ArtifactRow, "pk" | "type" | "name" | "latestVersion"> & { teamArchivedAt: TeamRow["archivedAt"]; staleListeners: number; watched: number };

/**
 * The artifact's row, moved on to the version being published (the checks after it throw, rolling it back), with the
 * version it was at, whether its team is archived and whether an artifact_stale rule listens: one statement for an
 * artifact that exists. Publishing an id that team_reset archived brings it back, numbering on from its old versions.
 */
async function claimVersion(tx: WriteTx, input: PublishArtifactInput): Promise<{ artifact: Claimed; latest: number }> {
  const team = input.team;
  const bumped = await tx.get<Claimed>(
    sql`UPDATE "Artifact" SET "latestVersion" = "latestVersion" + 1, "name" = COALESCE(${input.name ?? null}, "name"), "updatedAt" = ${tx.now}, "archivedAt" = NULL
     WHERE "teamId" = ${team} AND "id" = ${input.id}
     RETURNING ${CLAIMED_COLUMNS}, (SELECT t."archivedAt" FROM "Team" t WHERE t."id" = ${team}) AS "teamArchivedAt", ${staleListenersOf(team)} AS "staleListeners",
       ${publishWatched(team, input.id, input.type)} AS "watched"`,
  );
  if (bumped) {
    await ensureTeam(tx, team, { row: { archivedAt: bumped.teamArchivedAt } });
    return { artifact: bumped, latest: bumped.latestVersion - 1 };
  }
  // A new artifact: its team may be new too.
  const row = await tx.get<Pick<TeamRow, "archivedAt"> & { staleListeners: number; watched: number }>(
    sql`SELECT t."archivedAt", ${staleListenersOf(raw(`t."id"`))} AS "staleListeners", ${publishWatched(team, input.id, input.type)} AS "watched" FROM "Team" t WHERE t."id" = ${team}`,
  );
  await ensureTeam(tx, team, { row });
  const created = await tx.get<Claimed>(
    sql`INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion","createdAt","updatedAt") VALUES (${team},${input.id},${input.type},${input.name ?? input.id},1,${tx.now},${tx.now}) RETURNING ${CLAIMED_COLUMNS}`,
  );
  return { artifact: { ...created!, teamArchivedAt: null, staleListeners: row?.staleListeners ?? 0, watched: row?.watched ?? 0 }, latest: 0 };
}

async function pinInputs(tx: WriteTx, team: string, refs: string[]): Promise<PinnedRef[]> {
  const pinned: PinnedRef[] = [];
  for (const p of refs.length ? await pinRefs(tx, team, refs, (i) => `derivedFrom[${i}]`) : []) if (!pinned.some((x) => x.seq === p.seq)) pinned.push(p);
  return pinned;
}

async function replaceTags(tx: WriteTx, artifactPk: number, tags: string[]) {
  await tx.run(sql`DELETE FROM "ArtifactTag" WHERE "artifactPk" = ${artifactPk}`);
  for (const tag of new Set(tags)) await tx.run(sql`INSERT INTO "ArtifactTag" ("artifactPk","tag") VALUES (${artifactPk},${tag})`);
}

type VersionJoin = ArtifactVersionRow & Pick<ArtifactRow, "type" | "name"> & { artifactId: ArtifactRow["id"] };

const VERSION_SELECT = sql`SELECT v.*, a."id" AS "artifactId", a."type", a."name" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"`;

async function derivedFromOf(s: Sql, seqs: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (seqs.length === 0) return out;
  const rows = await s.all<Pick<LineageEdgeRow, "toSeq"> & Pick<ArtifactVersionRow, "version"> & { artifactId: ArtifactRow["id"] }>(
    sql`SELECT e."toSeq", a."id" AS "artifactId", v."version" FROM "LineageEdge" e
     JOIN "ArtifactVersion" v ON v."seq" = e."fromSeq" JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE e."kind" = 'derived' AND e."toSeq" IN ${inList(seqs)} ORDER BY e."id"`,
  );
  for (const r of rows) out.set(r.toSeq, [...(out.get(r.toSeq) ?? []), formatRef(r)]);
  return out;
}

function toVersionView(row: VersionJoin, derivedFrom: string[], withData: boolean): VersionView {
  return {
    artifactId: row.artifactId,
    version: row.version,
    seq: row.seq,
    type: row.type,
    name: row.name,
    status: VersionStatus.parse(row.status),
    summary: row.summary,
    size: row.size,
    publisher: row.publisher,
    sessionId: row.sessionId,
    contractId: row.contractId,
    derivedFrom,
    createdAt: row.createdAt,
    code: codeRefOf(row),
    ...(withData ? { data: jsonColumn(JsonValue, row.data) } : {}),
  };
}

/** Reads a version (the newest active one by default) and records the read (docs/domain.md#reads). */
export async function getArtifact(deps: DomainDeps, actor: Principal, input: GetArtifactInput): Promise<VersionView> {
  return deps.db.write("artifact.get", actor.name, async (tx) => {
    const row = input.version
      ? await tx.get<VersionJoin>(sql`${VERSION_SELECT} WHERE a."teamId" = ${input.team} AND a."id" = ${input.id} AND v."version" = ${input.version}`)
      : await tx.get<VersionJoin>(
          sql`${VERSION_SELECT} WHERE a."teamId" = ${input.team} AND a."id" = ${input.id} AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1`,
        );
    if (!row) {
      const exists = await tx.get(sql`SELECT 1 FROM "Artifact" WHERE "teamId" = ${input.team} AND "id" = ${input.id}`);
      if (!exists) throw notFound("artifact", input.id, "id");
      throw input.version
        ? notFound("artifact version", `${input.id}@v${input.version}`, "version")
        : new DomainError("not_found", `id: artifact '${input.id}' has no active version (all were rolled back)`, { field: "id", rule: "active_version" });
    }
    await recordRead(tx, input.team, row, actor);
    return toVersionView(row, (await derivedFromOf(tx, [row.seq])).get(row.seq) ?? [], true);
  });
}

export async function recordRead(tx: WriteTx, team: string, row: PinnedRef, reader: Principal) {
  await tx.run(sql`INSERT INTO "ArtifactRead" ("seq","reader","at") VALUES (${row.seq},${reader.name},${tx.now})`);
  await tx.emit({
    teamId: team,
    type: "artifact.read",
    subject: `artifact:${row.artifactId}@v${row.version}`,
    payload: { artifactId: row.artifactId, version: row.version, reader: reader.name },
  });
}

export async function artifactHistory(deps: DomainDeps, input: HistoryInput): Promise<ArtifactHistory> {
  return deps.db.read(async (s) => {
    const artifact = await loadArtifactView(s, input.team, input.id);
    const rows = await s.all<VersionJoin>(sql`${VERSION_SELECT} WHERE a."teamId" = ${input.team} AND a."id" = ${input.id} ORDER BY v."version"`);
    const edges = await derivedFromOf(
      s,
      rows.map((r) => r.seq),
    );
    return { artifact, versions: rows.map((r) => toVersionView(r, edges.get(r.seq) ?? [], input.includeData)) };
  });
}

export async function artifactReaders(deps: DomainDeps, input: ArtifactRefInput): Promise<ArtifactReaders> {
  return deps.db.read(async (s) => {
    await loadArtifactView(s, input.team, input.id);
    const reads = await s.all<Pick<ArtifactReadRow, "reader" | "at"> & Pick<ArtifactVersionRow, "version">>(
      sql`SELECT r."reader", v."version", r."at" FROM "ArtifactRead" r JOIN "ArtifactVersion" v ON v."seq" = r."seq"
       JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE a."teamId" = ${input.team} AND a."id" = ${input.id} ORDER BY r."id" DESC LIMIT 500`,
    );
    const byReader = new Map<string, ReaderSummary>();
    for (const r of reads) {
      const summary = byReader.get(r.reader);
      if (summary) summary.reads += 1;
      else byReader.set(r.reader, { reader: r.reader, reads: 1, lastVersion: r.version, lastAt: r.at });
    }
    return { readers: [...byReader.values()], reads };
  });
}

const LIST_SELECT = sql`SELECT a.*, lv."status" AS "status",
  (SELECT MAX(cv."version") FROM "ArtifactVersion" cv WHERE cv."artifactPk" = a."pk" AND cv."status" = 'active') AS "currentVersion",
  (SELECT cv."publisher" FROM "ArtifactVersion" cv WHERE cv."artifactPk" = a."pk" AND cv."status" = 'active' ORDER BY cv."version" DESC LIMIT 1) AS "publisher"
  FROM "Artifact" a JOIN "ArtifactVersion" lv ON lv."artifactPk" = a."pk" AND lv."version" = a."latestVersion"`;

type ListRow = ArtifactRow & Pick<ArtifactVersionRow, "status"> & { currentVersion: number | null; publisher: ArtifactVersionRow["publisher"] | null };

/** Each row's tags, sorted: one query for the page (string aggregation is spelled differently by each database). */
async function tagsOf(s: Sql, rows: ListRow[]): Promise<Map<number, string[]>> {
  const tags = new Map<number, string[]>(rows.map((r) => [r.pk, []]));
  if (rows.length === 0) return tags;
  const found = await s.all<ArtifactTagRow>(sql`SELECT "artifactPk","tag" FROM "ArtifactTag" WHERE "artifactPk" IN ${inList(tags.keys())} ORDER BY "tag"`);
  for (const t of found) tags.get(t.artifactPk)!.push(t.tag);
  return tags;
}

async function toArtifactViews(s: Sql, rows: ListRow[]): Promise<ArtifactView[]> {
  const tags = await tagsOf(s, rows);
  return rows.map((r) => toArtifactView(r, tags.get(r.pk)!));
}

function toArtifactView(r: ListRow, tags: string[]): ArtifactView {
  return {
    id: r.id,
    team: r.teamId,
    type: r.type,
    name: r.name,
    tags,
    latestVersion: r.latestVersion,
    currentVersion: r.currentVersion,
    status: VersionStatus.parse(r.status),
    publisher: r.publisher,
    archived: r.archivedAt !== null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function loadArtifactView(s: Sql, team: string, id: string): Promise<ArtifactView> {
  const row = await s.get<ListRow>(sql`${LIST_SELECT} WHERE a."teamId" = ${team} AND a."id" = ${id}`);
  if (!row) throw notFound("artifact", id, "id");
  return (await toArtifactViews(s, [row]))[0];
}

export async function listArtifacts(deps: DomainDeps, input: ListArtifactsInput): Promise<ArtifactPage> {
  const where = [sql`a."teamId" = ${input.team}`];
  if (!input.archived) where.push(sql`a."archivedAt" IS NULL`);
  if (input.type) where.push(sql`a."type" = ${input.type}`);
  if (input.status) where.push(sql`lv."status" = ${input.status}`);
  if (input.tag) where.push(sql`EXISTS (SELECT 1 FROM "ArtifactTag" t WHERE t."artifactPk" = a."pk" AND t."tag" = ${input.tag})`);
  if (input.publisher) {
    where.push(
      sql`(SELECT cv."publisher" FROM "ArtifactVersion" cv WHERE cv."artifactPk" = a."pk" AND cv."status" = 'active' ORDER BY cv."version" DESC LIMIT 1) = ${input.publisher}`,
    );
  }
  if (input.cursor !== undefined) where.push(sql`a."pk" > ${input.cursor}`);
  return deps.db.read(async (s) => {
    // Staleness depends on the whole lineage graph: computed when asked for, too costly to put on every view.
    if (input.stale) where.push(sql`a."id" IN ${inList((await computeStale(s, input.team)).keys())}`);
    const rows = await s.all<ListRow>(sql`${LIST_SELECT} WHERE ${join(where, " AND ")} ORDER BY a."pk" LIMIT ${input.limit + 1}`);
    const page = rows.slice(0, input.limit);
    return { items: await toArtifactViews(s, page), nextCursor: rows.length > input.limit ? page[page.length - 1].pk : null };
  });
}
