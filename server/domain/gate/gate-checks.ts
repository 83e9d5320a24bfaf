/**
 * The four phase-gate checks (docs/domain.md#phase-gate). Each returns its report entry and, when it fails, the
 * concrete things to do about it, which become the gate's recommendation. Artifact data is
 * never loaded: emptiness is decided on the stored JSON text, which JSON.stringify wrote.
 */
import type { WriteTx } from "../../db/database.ts";
import type { GateCheck, ReadCheck } from "../../../lib/api/gate.ts";
import { recordRead } from "../artifacts/artifacts.service.ts";
import type { Principal } from "../principal.ts";
import { rosterView } from "../roster/roster.service.ts";
import { inList, sql } from "../../db/sql.ts";
import type { ArtifactReadRow, ArtifactRow, ArtifactVersionRow } from "../../db/rows.ts";

type Checked = { result: GateCheck; todo: string[] };

/** An artifact as the gate sees it: its current version is the newest active one (none when all were rolled back). */
type GateArtifact = Pick<ArtifactRow, "pk"> & {
  artifactId: ArtifactRow["id"];
  archived: boolean;
  version: ArtifactVersionRow["version"] | null;
  seq: ArtifactVersionRow["seq"] | null;
  empty: boolean;
};

const list = (names: string[]) => names.map((n) => `'${n}'`).join(", ");

export async function loadGateArtifacts(tx: WriteTx, team: string, ids: string[]): Promise<Map<string, GateArtifact>> {
  const rows = await tx.all<Omit<GateArtifact, "archived" | "empty"> & { archived: number; empty: number | null }>(
    sql`SELECT a."id" AS "artifactId", a."pk", a."archivedAt" IS NOT NULL AS "archived", cv."version", cv."seq", cv."data" IN ('null','{}','[]','""') AS "empty"
     FROM "Artifact" a LEFT JOIN "ArtifactVersion" cv ON cv."seq" =
       (SELECT v."seq" FROM "ArtifactVersion" v WHERE v."artifactPk" = a."pk" AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1)
     WHERE a."teamId" = ${team} AND a."id" IN ${inList(ids)}`,
  );
  return new Map(rows.map((r) => [r.artifactId, { ...r, archived: r.archived === 1, empty: r.empty === 1 }]));
}

/** Usable: it has a current version and no team reset archived it. */
const usable = (a: GateArtifact | undefined): a is GateArtifact & { version: number; seq: number } => !!a && !a.archived && a.version !== null;

function whyMissing(id: string, a: GateArtifact | undefined): string {
  if (!a) return `'${id}' does not exist: publish it`;
  if (a.archived) return `'${id}' was archived by a team reset: publish it again`;
  return `'${id}' has no active version (all were rolled back): publish a new version`;
}

export function artifactsExist(expected: string[], artifacts: Map<string, GateArtifact>): Checked {
  const found = expected.flatMap((id) => {
    const a = artifacts.get(id);
    return usable(a) ? [{ artifactId: id, version: a.version }] : [];
  });
  const missing = expected.filter((id) => !usable(artifacts.get(id)));
  const todo = missing.map((id) => whyMissing(id, artifacts.get(id)));
  return {
    result: {
      check: "artifacts_exist",
      passed: missing.length === 0,
      details: {
        expected,
        found,
        missing: missing.map((id, i) => ({ artifactId: id, reason: todo[i] })),
      },
    },
    todo,
  };
}

/** Reads each existing expected artifact as the caller (recorded like any read) and checks it is not empty. */
export async function artifactsValid(tx: WriteTx, team: string, actor: Principal, expected: string[], artifacts: Map<string, GateArtifact>): Promise<Checked> {
  const results: Array<{ artifactId: string; version: number; valid: boolean }> = [];
  for (const id of expected) {
    const a = artifacts.get(id);
    if (!usable(a)) continue;
    await recordRead(tx, team, a, actor);
    results.push({ artifactId: id, version: a.version, valid: !a.empty });
  }
  const empty = results.filter((r) => !r.valid);
  return {
    result: {
      check: "artifacts_valid",
      passed: empty.length === 0,
      details: { results, readAs: actor.name, skipped: expected.filter((id) => !usable(artifacts.get(id))) },
    },
    todo: empty.map((r) => `'${r.artifactId}@v${r.version}' is empty (null, {}, [] or ""): publish a version with real content`),
  };
}

export async function membersIdle(tx: WriteTx, team: string, expectedIdle: string[] | undefined): Promise<Checked> {
  const roster = await rosterView(tx, team);
  const byName = new Map(roster.map((m) => [m.name, m]));
  const names = expectedIdle ?? roster.map((m) => m.name);
  const members = names
    .filter((n) => byName.has(n))
    .map((n) => {
      const m = byName.get(n)!;
      return { name: n, status: m.status, currentTask: m.currentTask, idle: m.status === "idle" };
    });
  const notOnRoster = names.filter((n) => !byName.has(n));
  const busy = members.filter((m) => !m.idle);
  const todo = [
    ...busy.map((m) => `wait until '${m.name}' is idle (it is ${m.status}${m.currentTask ? `: ${m.currentTask}` : ""})`),
    ...(notOnRoster.length
      ? [`${list(notOnRoster)} ${notOnRoster.length > 1 ? "are" : "is"} not on the roster: check the name${notOnRoster.length > 1 ? "s" : ""}`]
      : []),
  ];
  return {
    result: { check: "members_idle", passed: todo.length === 0, details: { checked: expectedIdle ? "named members" : "whole roster", members, notOnRoster } },
    todo,
  };
}

/** Each named consumer must have read the artifact's current version; an older read is reported apart. */
export async function artifactsRead(
  tx: WriteTx,
  expectedReaders: Record<string, string[]> | undefined,
  artifacts: Map<string, GateArtifact>,
): Promise<Checked> {
  if (!expectedReaders)
    return { result: { check: "artifacts_read", passed: true, details: { note: "no expected_readers given: nothing to check" } }, todo: [] };
  const results: ReadCheck[] = [];
  const todo: string[] = [];
  for (const [id, expected] of Object.entries(expectedReaders)) {
    const a = artifacts.get(id);
    if (!usable(a)) {
      results.push({ artifactId: id, currentVersion: null, expected, readCurrent: [], readOlderOnly: [], notRead: expected });
      todo.push(whyMissing(id, a));
      continue;
    }
    const reads = await tx.all<Pick<ArtifactReadRow, "reader"> & { lastVersion: number; current: number }>(
      sql`SELECT r."reader", MAX(v."version") AS "lastVersion", MAX(CASE WHEN r."seq" = ${a.seq} THEN 1 ELSE 0 END) AS "current" FROM "ArtifactRead" r JOIN "ArtifactVersion" v ON v."seq" = r."seq"
       WHERE v."artifactPk" = ${a.pk} AND r."reader" IN ${inList(expected)} GROUP BY r."reader"`,
    );
    const byReader = new Map(reads.map((r) => [r.reader, r]));
    const readCurrent = expected.filter((n) => byReader.get(n)?.current === 1);
    const readOlderOnly = expected
      .filter((n) => byReader.has(n) && byReader.get(n)!.current !== 1)
      .map((n) => ({ name: n, lastReadVersion: byReader.get(n)!.lastVersion }));
    const notRead = expected.filter((n) => !byReader.has(n));
    results.push({ artifactId: id, currentVersion: a.version, expected, readCurrent, readOlderOnly, notRead });
    if (notRead.length) todo.push(`ask ${list(notRead)} to read '${id}' (current v${a.version})`);
    for (const r of readOlderOnly) todo.push(`'${r.name}' read only v${r.lastReadVersion} of '${id}': have it read the current v${a.version}`);
  }
  return { result: { check: "artifacts_read", passed: todo.length === 0, details: { artifacts: results } }, todo };
}
