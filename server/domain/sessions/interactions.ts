/**
 * Interactions: one user turn each. A message first becomes a `queued` interaction (so pause,
 * busy sessions and hub restarts never lose it); the supervisor starts the oldest queued one
 * when the session is free.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, stringsOf, type InteractionRow, type SessionRow } from "../../db/rows.ts";
import { InteractionStatus, type InteractionView } from "../../../lib/api/sessions.ts";

/** The CLI's permission denials of a turn, as stored: the fields shown are checked, the rest is kept. */
const Denials = z.array(z.looseObject({ tool_name: z.string(), tool_input: z.unknown().optional() }));

export const interactionView = (r: InteractionRow): InteractionView => {
  const { sessionPk: _pk, teamId: _team, member: _member, contractId: _contract, toolsUsed, permissionDenials, ...rest } = r;
  return {
    ...rest,
    status: InteractionStatus.parse(r.status),
    isError: Boolean(r.isError),
    empty: Boolean(r.empty),
    toolsUsed: stringsOf(toolsUsed),
    permissionDenials: jsonColumn(Denials, permissionDenials),
  };
};

export async function queueMessage(tx: WriteTx, session: SessionRow, prompt: string, source: string): Promise<InteractionRow> {
  const next = await tx.get<{ n: number }>(sql`SELECT COALESCE(MAX("n"), 0) + 1 AS n FROM "Interaction" WHERE "sessionPk" = ${session.pk}`);
  const r = await tx.get<Pick<InteractionRow, "id">>(
    sql`INSERT INTO "Interaction" ("sessionPk","n","prompt","status","startedAt") VALUES (${session.pk},${next!.n},${prompt},'queued',${tx.now}) RETURNING "id"`,
  );
  await tx.emit({
    teamId: session.teamId,
    type: "session.message_queued",
    subject: `session:${session.name}`,
    payload: { name: session.name, interactionId: r!.id, n: next!.n, source, chars: prompt.length },
  });
  return (await interactionById(tx, r!.id))!;
}

export async function interactionById(s: Sql, id: number): Promise<InteractionRow | undefined> {
  return s.get<InteractionRow>(sql`SELECT * FROM "Interaction" WHERE "id" = ${id}`);
}

export async function runningInteraction(s: Sql, sessionPk: number): Promise<InteractionRow | undefined> {
  return s.get<InteractionRow>(sql`SELECT * FROM "Interaction" WHERE "sessionPk" = ${sessionPk} AND "status" = 'running' ORDER BY "n" DESC LIMIT 1`);
}

/** Ends whatever turn is running without a result (the process went away or was interrupted). */
export async function abandonRunning(tx: WriteTx, sessionPk: number, status: "interrupted" | "error", note: string): Promise<number | null> {
  const running = await runningInteraction(tx, sessionPk);
  if (!running) return null;
  const error = status === "error" ? note : null;
  await tx.run(
    sql`UPDATE "Interaction" SET "status" = ${status}, "response" = COALESCE("response", ${note}), "error" = ${error}, "endedAt" = ${tx.now} WHERE "id" = ${running.id}`,
  );
  return running.id;
}
