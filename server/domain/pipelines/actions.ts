/**
 * What a fired rule does (docs/domain.md#pipelines), inside the runner's transaction for that (rule, event): the
 * action's writes and the execution record commit together or not at all. Template fields are
 * rendered first, then validated like any other input to the same domain operation.
 */
import type { z } from "zod";
import type { WriteTx } from "../../db/database.ts";
import { invalidField } from "../../errors.ts";
import { EntityId, MemberName } from "../../../lib/ids.ts";
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import type { Action } from "../../../lib/api/pipelines.ts";
import { deliver } from "../chat/messages.ts";
import { createContractInTx, reopenInTx } from "../contracts/contracts.service.ts";
import { findContract } from "../contracts/contracts.repo.ts";
import { noteVia } from "../contracts/notices.ts";
import { invalidateDownstream } from "../lineage/staleness.ts";
import type { Principal } from "../principal.ts";
import { rosterOf } from "../roster/roster.service.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { renderTemplate } from "./expressions.ts";
import type { EventContext } from "./triggers.ts";

export type ActionOutcome = { outcome: "executed" | "skipped"; detail: Record<string, unknown> };

/** `actor`: the creator, whose authority the action has; `sender`: the pipeline, named on the notices it delivers. */
type Run = { tx: WriteTx; team: string; actor: Principal; sender: string; ctx: EventContext };

const render = (r: Run, text: string) => renderTemplate(text, r.ctx.scope, r.ctx.vars);
/** A rendered value must still be a valid value of its field. */
const renderAs = <S extends z.ZodType>(r: Run, schema: S, text: string, field: string): z.infer<S> => parseOrThrow(schema, render(r, text), field);

async function message(r: Run, kind: "notify" | "turn", target: string, text: string): Promise<ActionOutcome> {
  const to = renderAs(r, MemberName, target, "action.target");
  const body = render(r, text);
  const ids = await deliver(r.tx, { team: r.team, from: r.sender, to: [to], kind, text: body });
  return { outcome: "executed", detail: { target: to, message: body, messageIds: ids, delivery: kind === "turn" ? "turn" : "inbox" } };
}

export async function runAction(r: Run, action: Action): Promise<ActionOutcome> {
  switch (action.type) {
    case "notify_session":
      return message(r, "notify", action.target, action.message);
    case "send_to_session":
      return message(r, "turn", action.target, action.message);
    case "broadcast": {
      const body = render(r, action.message);
      const members = (await rosterOf(r.tx, r.team)).map((m) => m.name);
      const ids = await deliver(r.tx, { team: r.team, from: r.sender, to: members, kind: "broadcast", text: body });
      return { outcome: "executed", detail: { message: body, recipients: members, messageIds: ids } };
    }
    case "reopen_contract": {
      const id = renderAs(r, EntityId, action.contractId, "action.contractId");
      const reason = render(r, action.reason);
      noteVia(r.tx, r.sender);
      const c = await reopenInTx(r.tx, r.actor, { team: r.team, id, reason });
      return { outcome: "executed", detail: { contractId: id, reason, status: c.status, retryCount: c.retryCount } };
    }
    case "create_contract": {
      const t = action.contract;
      const input = parseOrThrow(
        CreateContractInput,
        {
          ...t,
          team: r.team,
          id: render(r, t.id),
          title: render(r, t.title),
          assignee: render(r, t.assignee),
          description: t.description === undefined ? undefined : render(r, t.description),
        },
        "action.contract",
      );
      if (await findContract(r.tx, r.team, input.id))
        return { outcome: "skipped", detail: { contractId: input.id, reason: "a contract with this id already exists" } };
      noteVia(r.tx, r.sender);
      const c = await createContractInTx(r.tx, r.actor, input);
      return { outcome: "executed", detail: { contractId: c.id, assignee: c.assignee, status: c.status } };
    }
    case "invalidate_downstream": {
      const source = action.artifactId ? renderAs(r, EntityId, action.artifactId, "action.artifactId") : r.ctx.subject.id;
      if (!source) throw invalidField("action.artifactId", "required", "is required when the trigger is not about an artifact");
      const marked = await invalidateDownstream(r.tx, r.team, source, `invalidated by ${r.sender}`, r.actor.name);
      return { outcome: "executed", detail: { artifactId: source, marked } };
    }
  }
}
