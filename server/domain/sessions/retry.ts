/**
 * Retrying a failed turn (docs/sessions.md#retrying-a-failed-turn): the prompt of the session's last turn, sent again
 * as a new turn, when that turn failed (the API's error, `status: "error"`) and nothing waits or runs after it; an
 * interrupted or withdrawn turn since proves nothing either way, as for the session's problem. It is a send of the
 * same words, so it needs what a send needs (`session.send`) and resumes a session that is not running.
 */
import { sql } from "../../db/sql.ts";
import type { InteractionRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";
import type { SendResult, SessionRef } from "../../../lib/api/sessions.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { sendInTx } from "./control.service.ts";
import { interactionView } from "./interactions.ts";
import { authorizeSession } from "./ownership.ts";
import { requireSession, viewOf } from "./sessions.repo.ts";

export async function retryTurn(deps: DomainDeps, actor: Principal, input: SessionRef, maxLive: number): Promise<SendResult> {
  return deps.db.write("session.retry", actor.name, async (tx) => {
    const s = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.send", s);
    const last = await tx.get<InteractionRow>(
      sql`SELECT * FROM "Interaction" WHERE "sessionPk" = ${s.pk} AND "status" NOT IN ('interrupted', 'cancelled') ORDER BY "n" DESC LIMIT 1`,
    );
    if (!last || last.status !== "error") {
      const what = !last ? "it has no turn yet" : `its last turn (${last.n}) is ${last.status}`;
      throw new DomainError("precondition_failed", `name: session '${s.name}' has no failed turn to retry: ${what}`, {
        field: "name",
        rule: "last_turn_failed",
        name: s.name,
        ...(last ? { turn: last.n, status: last.status } : {}),
      });
    }
    const queued = await sendInTx(tx, s, last.prompt, `${actor.name} (retry of turn ${last.n})`, maxLive);
    return { session: await viewOf(tx, await requireSession(tx, s.name)), interaction: interactionView(queued), completed: false };
  });
}
