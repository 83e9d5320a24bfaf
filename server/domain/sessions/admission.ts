/**
 * Admission (docs/security.md#admission): at most `maxLive` sessions hold a `claude` process at once. A session
 * that asks for one (spawn, team spawn, fork, batch, delegate, resume) while none is free, or
 * while others already wait, is `queued`; places are given in (queuedAt, pk) order as processes
 * end. So that the queue always drains, an idle session with nothing pending yields its place
 * when others wait: it is stopped gracefully with exitReason `admission:yielded` and a later
 * message resumes it through the queue. `maxLive` 0 means no limit.
 *
 * Every decision counts and changes in one write, so no two writers can hand out the same place.
 */
import os from "node:os";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { moveTo, queuePosition, type SessionRow } from "./sessions.repo.ts";
import { LIVE } from "./states.ts";

export const YIELDED = "admission:yielded";

/** What one `claude` process with its MCP client and children takes, measured around 300–400 MB. */
const BYTES_PER_SESSION = 400 * 1024 * 1024;

/** The default limit: max(2, min(2 × cores, available memory / 400 MB)), taken once when the hub starts. */
export function defaultMaxLive(cores = os.availableParallelism(), freeBytes = os.freemem()): number {
  return Math.max(2, Math.min(2 * cores, Math.floor(freeBytes / BYTES_PER_SESSION)));
}

/** The states in which a session holds (or is about to start) a process. */
const HOLDING = LIVE.filter((s) => s !== "queued");
const holdingList = HOLDING.map((s) => `'${s}'`).join(",");

async function counts(sql: Sql): Promise<{ holding: number; queued: number }> {
  const r = await sql.get<{ holding: number; queued: number }>(
    `SELECT (SELECT COUNT(*) FROM "Session" WHERE "status" IN (${holdingList})) AS holding, (SELECT COUNT(*) FROM "Session" WHERE "status" = 'queued') AS queued`,
  );
  return r ?? { holding: 0, queued: 0 };
}

/** Where a session asking for a process goes now: a free place with nobody waiting ahead starts it. */
export async function placeFor(tx: WriteTx, maxLive: number): Promise<"starting" | "queued"> {
  if (maxLive === 0) return "starting";
  const { holding, queued } = await counts(tx);
  return queued === 0 && holding < maxLive ? "starting" : "queued";
}

/** Records, with the write that queued the session, where it stands in the queue. */
export async function announceQueued(tx: WriteTx, row: SessionRow, maxLive: number): Promise<void> {
  const position = await queuePosition(tx, row);
  await tx.emit({ teamId: row.teamId, type: "session.queued", subject: `session:${row.name}`, payload: { name: row.name, position, maxLive } });
}

type AdmissionPass = { admitted: SessionRow[]; yielding: SessionRow[] };

const NOTHING: AdmissionPass = { admitted: [], yielding: [] };

const yieldedWithMessages = `"status" = 'stopped' AND "exitReason" = '${YIELDED}' AND EXISTS (SELECT 1 FROM "Interaction" i WHERE i."sessionPk" = "Session"."pk" AND i."status" = 'queued')`;

/**
 * The supervisor's pass, run whenever a place may have freed or the queue changed: a yielded
 * session that received a message while it was stopping queues again, queued sessions are
 * admitted into free places, and if sessions still wait, the longest-idle sessions with nothing
 * pending are asked to yield (`alreadyYielding` are on their way out and count as freeing).
 */
export async function admissionPass({ db }: DomainDeps, maxLive: number, alreadyYielding: ReadonlySet<number>): Promise<AdmissionPass> {
  const waiting = await db.read((sql) => sql.get(`SELECT 1 FROM "Session" WHERE "status" = 'queued' OR (${yieldedWithMessages}) LIMIT 1`));
  if (!waiting) return NOTHING;
  return db.write("session.admission", SUPERVISOR.name, async (tx) => {
    for (const s of await tx.all<SessionRow>(`SELECT * FROM "Session" WHERE ${yieldedWithMessages} ORDER BY "pk"`)) {
      await moveTo(tx, s, "queued", "a message arrived while it was yielding its place", { queuedAt: tx.now, exitReason: null });
      await announceQueued(tx, s, maxLive);
    }
    const { holding } = await counts(tx);
    const free = maxLive === 0 ? Number.MAX_SAFE_INTEGER : Math.max(0, maxLive - holding);
    const queued = await tx.all<SessionRow>(`SELECT * FROM "Session" WHERE "status" = 'queued' ORDER BY "queuedAt", "pk"`);
    const admitted = queued.slice(0, free);
    for (const s of admitted) {
      const waitedMs = s.queuedAt ? tx.now.getTime() - s.queuedAt.getTime() : 0;
      await moveTo(tx, s, "starting", "admitted: a place is free");
      await tx.emit({ teamId: s.teamId, type: "session.admitted", subject: `session:${s.name}`, payload: { name: s.name, waitedMs } });
    }
    const need = queued.length - admitted.length - alreadyYielding.size;
    if (need <= 0) return { admitted, yielding: [] };
    const idle = await tx.all<SessionRow>(
      `SELECT * FROM "Session" s WHERE s."status" = 'idle'
         AND NOT EXISTS (SELECT 1 FROM "Interaction" i WHERE i."sessionPk" = s."pk" AND i."status" = 'queued')
         AND NOT EXISTS (SELECT 1 FROM "Approval" a WHERE a."sessionPk" = s."pk" AND a."status" = 'pending')
       ORDER BY s."updatedAt", s."pk"`,
    );
    const yielding = idle.filter((s) => !alreadyYielding.has(s.pk)).slice(0, need);
    for (const s of yielding) {
      await tx.emit({
        teamId: s.teamId,
        type: "session.stop_requested",
        subject: `session:${s.name}`,
        payload: { name: s.name, by: SUPERVISOR.name, reason: YIELDED },
      });
    }
    return { admitted, yielding };
  });
}
