/**
 * Wake-ups (docs/domain.md#wake-ups): instead of agents polling, the hub gives a live supervised member a turn when
 * its contract becomes ready or a message arrives for it. A busy session gets the turn when its
 * current one ends. Team option `wake: off` turns this off; explicit `send_to_session` turns
 * from pipelines are always delivered. A member that yielded its place to the admission queue
 * is still on duty: the wake-up resumes it (through the queue).
 */
import { sql, values } from "../../db/sql.ts";
import type { DomainDeps } from "../deps.ts";
import { claimSession } from "../hubs/claim.ts";
import { SUPERVISOR } from "../principal.ts";
import { teamSettings } from "../teams/settings.ts";
import { YIELDED } from "./admission.ts";
import { sendInTx } from "./control.service.ts";
import type { SessionRow } from "../../db/rows.ts";
import { LIVE } from "./states.ts";

export const WAKE_PREFIX = "[Team Hub]";

const LIVE_VALUES = values(LIVE);

/** `onlyWithWork`: a message to everyone (a broadcast) wakes only members with a contract ready or in progress (docs/budgets.md). */
export type Wake = { team: string; member: string; text: string; reason: "contract" | "message" | "turn"; onlyWithWork?: boolean };

/** Queues the wake-up turn; false when nobody live is there to wake or the team switched it off. */
export async function wakeMember({ db }: DomainDeps, w: Wake, maxLive: number): Promise<boolean> {
  return db.write("session.wake", SUPERVISOR.name, async (tx) => {
    const s = await tx.get<SessionRow>(
      sql`SELECT * FROM "Session" WHERE "teamId" = ${w.team} AND "principal" = ${w.member} AND ("status" IN (${LIVE_VALUES}) OR ("status" = 'stopped' AND "exitReason" = ${YIELDED}))
       ORDER BY "pk" DESC LIMIT 1`,
    );
    if (!s) return false;
    if (w.reason !== "turn" && (await teamSettings(tx, w.team)).wake === "off") return false;
    // An idle member with nothing to do spends money reading a broadcast; it finds it in its inbox when it next has work.
    if (w.onlyWithWork) {
      const work = await tx.get(
        sql`SELECT 1 FROM "Contract" WHERE "teamId" = ${w.team} AND "assignee" = ${w.member} AND "status" IN ('ready','in_progress') LIMIT 1`,
      );
      if (!work) return false;
    }
    // One pending "you have messages" turn is enough: it points at the inbox, which holds them all.
    if (w.reason === "message") {
      const pending = await tx.get(
        sql`SELECT 1 FROM "Interaction" WHERE "sessionPk" = ${s.pk} AND "status" = 'queued' AND "prompt" LIKE ${`${WAKE_PREFIX} New message%`}`,
      );
      if (pending) return false;
    }
    // Every hub sees the message; only the one running the member wakes it (docs/hubs.md#ownership).
    if (!(await claimSession(tx, s))) return false;
    await sendInTx(tx, s, w.text, `wake:${w.reason}`, maxLive);
    return true;
  });
}
