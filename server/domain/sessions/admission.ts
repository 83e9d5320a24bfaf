/**
 * Admission (docs/security.md#admission): at most `maxLive` sessions of one hub hold a `claude` process at once, since
 * the limit guards that hub's machine (docs/hubs.md#admission). A session
 * that asks for one (spawn, team spawn, fork, batch, delegate, resume) while none is free, or
 * while others already wait, is `queued`; places are given in (queuedAt, pk) order as processes
 * end. So that the queue always drains, an idle session with nothing pending yields its place
 * when others wait: it is stopped gracefully with exitReason `admission:yielded` and a later
 * message resumes it through the queue. `maxLive` 0 means no limit.
 *
 * Every decision counts and changes in one write, so no two writers can hand out the same place.
 */
import os from "node:os";
import type { WriteTx } from "../../db/database.ts";
import { raw, sql, type Query } from "../../db/sql.ts";
import type { SessionRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { claimSession } from "../hubs/claim.ts";
import { heldBy, moveTo, queueOf, queuePosition } from "./sessions.repo.ts";
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
const holdingList = raw(HOLDING.map((s) => `'${s}'`).join(","));

/** What the writing hub holds, and how many wait in its queue (its own queued sessions and the unowned ones). */
async function counts(tx: WriteTx): Promise<{ holding: number; queued: number }> {
  const r = await tx.get<{ holding: number; queued: number }>(
    sql`SELECT (SELECT COUNT(*) FROM "Session" WHERE "status" IN (${holdingList}) AND ${heldBy(tx.hub)}) AS holding,
            (SELECT COUNT(*) FROM "Session" WHERE "status" = 'queued' AND ${queueOf(tx.hub)}) AS queued`,
  );
  return r ?? { holding: 0, queued: 0 };
}

/** Where a session asking for a process goes now: a free place with nobody waiting ahead starts it. */
export async function placeFor(tx: WriteTx, maxLive: number): Promise<"starting" | "queued"> {
  if (maxLive === 0) return "starting";
  // A process that runs no sessions cannot know how loaded the hub that claims this one will be: while any hub is live,
  // the session waits unowned in the queue, and the first hub with a free place admits and claims it.
  if (tx.hub === null && (await tx.get(sql`SELECT 1 FROM "Hub" WHERE "status" = 'live' LIMIT 1`))) return "queued";
  const { holding, queued } = await counts(tx);
  return queued === 0 && holding < maxLive ? "starting" : "queued";
}

/** Records, with the write that queued the session, where it stands in the queue. */
export async function announceQueued(tx: WriteTx, row: SessionRow, maxLive: number): Promise<void> {
  const position = await queuePosition(tx, row);
  await tx.emit({ teamId: row.teamId, type: "session.queued", subject: `session:${row.name}`, payload: { name: row.name, position, maxLive } });
}

/**
 * Queues again the sessions of `holder` that yielded their place and received a message while they were stopping; with
 * `release`, unowned (their hub stopped or was lost: any hub may admit them).
 */
export async function requeueYielded(tx: WriteTx, holder: Query, maxLive: number, release: boolean): Promise<void> {
  for (const s of await tx.all<SessionRow>(sql`SELECT * FROM "Session" WHERE ${yieldedWithMessages} AND ${holder} ORDER BY "pk"`)) {
    await moveTo(tx, s, "queued", "a message arrived while it was yielding its place", {
      queuedAt: tx.now,
      exitReason: null,
      ...(release ? { hubId: null } : {}),
    });
    await announceQueued(tx, s, maxLive);
  }
}

type AdmissionPass = { admitted: SessionRow[]; yielding: SessionRow[] };

const NOTHING: AdmissionPass = { admitted: [], yielding: [] };

const yieldedWithMessages = raw(
  `"status" = 'stopped' AND "exitReason" = '${YIELDED}' AND EXISTS (SELECT 1 FROM "Interaction" i WHERE i."sessionPk" = "Session"."pk" AND i."status" = 'queued')`,
);

/**
 * The supervisor's pass, run whenever a place may have freed or the queue changed: a yielded
 * session of this hub that received a message while it was stopping queues again, the hub's queue
 * (its own sessions and the unowned ones, which it claims) is admitted into its free places, and
 * if sessions still wait, its longest-idle sessions with nothing pending are asked to yield
 * (`alreadyYielding` are on their way out and count as freeing). Another live hub's queued
 * sessions are that hub's to admit.
 */
export async function admissionPass({ db }: DomainDeps, maxLive: number, alreadyYielding: ReadonlySet<number>): Promise<AdmissionPass> {
  const mine = heldBy(db.hub);
  const queue = queueOf(db.hub);
  const waiting = await db.read((s) =>
    s.get(sql`SELECT 1 FROM "Session" WHERE ("status" = 'queued' AND ${queue}) OR (${yieldedWithMessages} AND ${mine}) LIMIT 1`),
  );
  if (!waiting) return NOTHING;
  return db.write("session.admission", SUPERVISOR.name, async (tx) => {
    await requeueYielded(tx, mine, maxLive, false);
    const { holding } = await counts(tx);
    const free = maxLive === 0 ? Number.MAX_SAFE_INTEGER : Math.max(0, maxLive - holding);
    const queued = await tx.all<SessionRow>(sql`SELECT * FROM "Session" WHERE "status" = 'queued' AND ${queue} ORDER BY "queuedAt", "pk"`);
    const admitted = queued.slice(0, free);
    for (const s of admitted) {
      // Read in this write, so an unowned one is still unowned: the claim cannot fail.
      await claimSession(tx, s);
      const waitedMs = s.queuedAt ? tx.now.getTime() - s.queuedAt.getTime() : 0;
      await moveTo(tx, s, "starting", "admitted: a place is free");
      await tx.emit({ teamId: s.teamId, type: "session.admitted", subject: `session:${s.name}`, payload: { name: s.name, waitedMs } });
    }
    const need = queued.length - admitted.length - alreadyYielding.size;
    if (need <= 0) return { admitted, yielding: [] };
    const idle = await tx.all<SessionRow>(
      sql`SELECT * FROM "Session" s WHERE s."status" = 'idle' AND ${mine}
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
