/**
 * Restart recovery (docs/domain.md#restart-recovery): when the hub starts, no process of a previous run is ours any more.
 * Sessions that had one become `interrupted` (their Claude session id kept, so `resume`
 * continues the conversation); sessions whose launch was requested but never happened are
 * returned to be launched now. Queued sessions keep their place: they never had a process, and
 * the supervisor admits them in order as before. Only this hub's sessions, and unclaimed ones, are
 * its to recover: another hub sharing the database runs its own (docs/hubs.md).
 */
import type { WriteTx } from "../../db/database.ts";
import { sql, values } from "../../db/sql.ts";
import type { SessionRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { cancelPending } from "./approvals.ts";
import { abandonRunning } from "./interactions.ts";
import { moveTo } from "./sessions.repo.ts";
import { LIVE } from "./states.ts";

const LIVE_VALUES = values(LIVE);

export type Recovery = { interrupted: Array<SessionRow & { previousPid: SessionRow["pid"] }>; toLaunch: SessionRow[] };

/** A session whose process is no longer anyone's: `interrupted`, its running turn abandoned and its approvals cancelled. */
export async function interruptOrphan(tx: WriteTx, s: SessionRow, reason: "hub_restart" | "hub_lost", why: string): Promise<void> {
  await moveTo(tx, s, "interrupted", why, { pid: null, exitReason: reason, stalledAt: null });
  const abandoned = await abandonRunning(tx, s.pk, "interrupted", `(no result: ${why} during this turn)`);
  await cancelPending(tx, s.pk, why);
  await tx.emit({
    teamId: s.teamId,
    type: "session.exited",
    subject: `session:${s.name}`,
    payload: { name: s.name, status: "interrupted", reason, code: null, signal: null, abandonedInteraction: abandoned, stderrTail: "" },
  });
}

export async function recoverSessions({ db }: DomainDeps): Promise<Recovery> {
  return db.write("session.recover", SUPERVISOR.name, async (tx) => {
    const live = await tx.all<SessionRow>(
      sql`SELECT * FROM "Session" WHERE "status" IN (${LIVE_VALUES}) AND ("hubId" = ${tx.hub} OR "hubId" IS NULL) ORDER BY "pk"`,
    );
    const out: Recovery = { interrupted: [], toLaunch: [] };
    for (const s of live) {
      if (s.status === "queued") continue;
      if (s.status === "starting" && s.pid === null) {
        if (s.hubId === null && tx.hub !== null) {
          await tx.run(sql`UPDATE "Session" SET "hubId" = ${tx.hub} WHERE "pk" = ${s.pk}`);
          s.hubId = tx.hub;
        }
        out.toLaunch.push(s);
        continue;
      }
      const previousPid = s.pid;
      await interruptOrphan(tx, s, "hub_restart", "the hub restarted");
      out.interrupted.push({ ...s, previousPid });
    }
    return out;
  });
}
