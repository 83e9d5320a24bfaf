/**
 * Direct messages and broadcasts (docs/domain.md#chat). The sender is always the calling principal. A direct
 * message goes to a member on the team's roster or to the operator (so agents can reach the
 * person at the dashboard); anything else is a typo or a member that has not joined yet, and is
 * refused rather than left in an inbox nobody reads.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { DomainError, invalidField } from "../../errors.ts";
import type { BroadcastInput, Broadcasted, SendMessageInput, Sent } from "../../../lib/api/chat.ts";
import type { DomainDeps } from "../deps.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { rosterOf } from "../roster/roster.service.ts";
import { enforceChatLimits } from "./limits.ts";
import { deliver } from "./messages.ts";
import { sendTransaction } from "./send-transaction.ts";

/** A dm or an ask to one member, inside the caller's transaction. */
export async function directInTx(tx: WriteTx, actor: Principal, d: { team: string; to: string; kind: "dm" | "ask"; text: string }): Promise<Sent> {
  if (d.to === actor.name) throw invalidField("to", "not_self", `is you ('${actor.name}'); a message goes to another member`, d.to);
  if (d.to !== OPERATOR.name && !(await tx.get(sql`SELECT 1 FROM "Member" WHERE "teamId" = ${d.team} AND "name" = ${d.to}`))) {
    const roster = (await rosterOf(tx, d.team)).map((m) => m.name);
    const names = roster.length > 20 ? `${roster.slice(0, 20).join(", ")}, …` : roster.join(", ");
    throw new DomainError(
      "not_found",
      `to: '${d.to}' is not on the roster of team '${d.team}' (${roster.length ? `members: ${names}` : "the roster is empty"}); ` +
        `members join with team_update_status (CLI: teamhub team-member <name>), and 'operator' reaches the person at the dashboard`,
      { what: "member", id: d.to, field: "to", rule: "on_roster" },
    );
  }
  await enforceChatLimits(tx, actor, d.team, d.to);
  const [messageId] = await deliver(tx, { team: d.team, from: actor.name, to: [d.to], kind: d.kind, text: d.text });
  return { messageId, to: d.to, kind: d.kind, sentAt: tx.now };
}

export async function sendMessage({ db }: DomainDeps, actor: Principal, input: SendMessageInput): Promise<Sent> {
  return sendTransaction(db, "chat.send", actor, input.team, (tx) =>
    directInTx(tx, actor, { team: input.team, to: input.to, kind: "dm", text: input.message }),
  );
}

/** To every member on the roster except the sender (who need not be on it). */
export async function broadcast({ db }: DomainDeps, actor: Principal, input: BroadcastInput): Promise<Broadcasted> {
  return sendTransaction(db, "chat.broadcast", actor, input.team, async (tx) => {
    const recipients = (await rosterOf(tx, input.team)).map((m) => m.name).filter((n) => n !== actor.name);
    // Like a dm to a stranger: a broadcast nobody receives is a mistake worth hearing about.
    if (recipients.length === 0) {
      throw new DomainError(
        "precondition_failed",
        `nobody but you is on the roster of team '${input.team}'; members join with team_update_status (CLI: teamhub team-member <name>)`,
        {
          field: "team",
          rule: "has_members",
        },
      );
    }
    await enforceChatLimits(tx, actor, input.team, null);
    const messageIds = await deliver(tx, { team: input.team, from: actor.name, to: recipients, kind: "broadcast", text: input.message });
    return { messageIds, recipients, sentAt: tx.now };
  });
}
