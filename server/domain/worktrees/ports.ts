/**
 * Ports for work-tree sessions (docs/worktrees.md#ports): each holds `ports` of the hub-wide range for as long as its
 * work tree exists, so two members that start the app never both take 3000. A port is the primary key of its lease, so
 * no two work trees hold it, whichever hub leased it; the lease goes with the work tree (delete, discard).
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { PortLeaseRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";

export type PortRange = { first: number; last: number };

/**
 * Below the ports the kernel hands out for outgoing connections (Linux 32768-60999, the IANA's 49152-65535): a leased
 * port that an outgoing connection of any program holds as its local port cannot be listened on, and a run command
 * given it fails to bind (docs/worktrees.md#ports).
 */
export const DEFAULT_PORT_RANGE: PortRange = { first: 24000, last: 24999 };

/** `TEAMHUB_PORT_RANGE` ("24000-24999"): a clear error for anything else. */
export function parsePortRange(text: string | undefined): PortRange {
  if (text === undefined || text === "") return DEFAULT_PORT_RANGE;
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(text.trim());
  const first = m ? Number(m[1]) : NaN;
  const last = m ? Number(m[2]) : NaN;
  if (!m || first < 1024 || last > 65535 || first > last) {
    throw new Error(`TEAMHUB_PORT_RANGE: '${text}' must be FIRST-LAST with 1024 <= FIRST <= LAST <= 65535`);
  }
  return { first, last };
}

/** Leases `count` free ports of the range to a work tree, lowest first; too few free is a refusal naming the range. */
export async function leasePorts(
  tx: WriteTx,
  w: { id: number; teamId: string; session: string },
  count: number,
  range: PortRange,
  field = "ports",
): Promise<number[]> {
  if (count === 0) return [];
  const held = await tx.all<Pick<PortLeaseRow, "port">>(
    sql`SELECT "port" FROM "PortLease" WHERE "port" >= ${range.first} AND "port" <= ${range.last} ORDER BY "port"`,
  );
  const taken = new Set(held.map((r) => r.port));
  const got: number[] = [];
  for (let port = range.first; port <= range.last && got.length < count; port++) {
    if (taken.has(port)) continue;
    // Another hub on the same database may lease the same port meanwhile: the key decides, and the loop moves on.
    const row = await tx.get<Pick<PortLeaseRow, "port">>(
      sql`INSERT INTO "PortLease" ("port","worktreeId","teamId","session","slot","createdAt") VALUES (${port},${w.id},${w.teamId},${w.session},${got.length},${tx.now}) ON CONFLICT ("port") DO NOTHING RETURNING "port"`,
    );
    if (row) got.push(row.port);
  }
  if (got.length < count) {
    const size = range.last - range.first + 1;
    throw new DomainError(
      "precondition_failed",
      `${field}: the hub's port range ${range.first}-${range.last} has ${got.length} of the ${count} ports asked for free (${size - got.length} held); ` +
        "delete or discard ended sessions, or widen TEAMHUB_PORT_RANGE",
      { field, rule: "ports_free", range: `${range.first}-${range.last}` },
    );
  }
  return got;
}

export async function portsOf(s: Sql, worktreeId: number): Promise<number[]> {
  return (await s.all<Pick<PortLeaseRow, "port">>(sql`SELECT "port" FROM "PortLease" WHERE "worktreeId" = ${worktreeId} ORDER BY "slot"`)).map((r) => r.port);
}

/** The work tree is gone: its ports are free for others. */
export async function releasePorts(tx: WriteTx, worktreeId: number): Promise<void> {
  await tx.run(sql`DELETE FROM "PortLease" WHERE "worktreeId" = ${worktreeId}`);
}

/** PORT (the first) and TEAMHUB_PORTS (all, comma-separated) for setup, run and the session's process. */
export function portEnv(ports: number[]): Record<string, string> {
  return ports.length ? { PORT: String(ports[0]), TEAMHUB_PORTS: ports.join(",") } : {};
}
