/**
 * Restart recovery (docs/domain.md#restart-recovery): when the hub starts, no process of a previous run is ours any more.
 * Sessions that had one become `interrupted` (their Claude session id kept, so `resume`
 * continues the conversation); sessions whose launch was requested but never happened are
 * returned to be launched now. Queued sessions keep their place: they never had a process, and
 * the supervisor admits them in order as before.
 */
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { cancelPending } from "./approvals.ts";
import { abandonRunning } from "./interactions.ts";
import { moveTo, type SessionRow } from "./sessions.repo.ts";
import { LIVE } from "./states.ts";

export type Recovery = { interrupted: Array<SessionRow & { previousPid: number | null }>; toLaunch: SessionRow[] };

export async function recoverSessions({ db }: DomainDeps): Promise<Recovery> {
  return db.write("session.recover", SUPERVISOR.name, async (tx) => {
    const live = await tx.all<SessionRow>(`SELECT * FROM "Session" WHERE "status" IN (${LIVE.map(() => "?").join(",")}) ORDER BY "pk"`, [...LIVE]);
    const out: Recovery = { interrupted: [], toLaunch: [] };
    for (const s of live) {
      if (s.status === "queued") continue;
      if (s.status === "starting" && s.pid === null) {
        out.toLaunch.push(s);
        continue;
      }
      const previousPid = s.pid;
      await moveTo(tx, s, "interrupted", "the hub restarted", { pid: null, exitReason: "hub_restart", stalledAt: null });
      const abandoned = await abandonRunning(tx, s.pk, "interrupted", "(no result: the hub restarted during this turn)");
      await cancelPending(tx, s.pk, "the hub restarted");
      await tx.emit({
        teamId: s.teamId,
        type: "session.exited",
        subject: `session:${s.name}`,
        payload: { name: s.name, status: "interrupted", reason: "hub_restart", code: null, signal: null, abandonedInteraction: abandoned, stderrTail: "" },
      });
      out.interrupted.push({ ...s, previousPid });
    }
    return out;
  });
}
