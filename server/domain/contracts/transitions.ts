/**
 * The contract state machine (§5). Every operation names the states it may start from; anything
 * else is an `illegal_transition` error that says where the contract is now.
 *
 *   pending → ready → in_progress → completed | failed;  completed | failed → (reopen) → pending | ready
 */
import type { WriteTx } from "../../db/database.ts";
import { DomainError, forbidden } from "../../errors.ts";
import type { ContractStatus } from "../../../lib/api/contracts.ts";
import { actsForAnyone, type Principal } from "../principal.ts";
import type { LoadedContract } from "./contracts.repo.ts";

export type Operation = "start" | "complete" | "fail" | "reopen" | "reassign" | "change_dependencies";

const ALLOWED_FROM: Record<Operation, ContractStatus[]> = {
  start: ["ready"],
  complete: ["ready", "in_progress"],
  fail: ["pending", "ready", "in_progress"],
  reopen: ["completed", "failed"],
  reassign: ["pending", "ready", "in_progress"],
  change_dependencies: ["pending", "ready"],
};

export function assertCan(c: LoadedContract, op: Operation): void {
  const allowed = ALLOWED_FROM[op];
  if (!allowed.includes(c.status)) {
    throw new DomainError(
      "illegal_transition",
      `contract '${c.id}' is ${c.status}; ${op.replace("_", " ")} needs it to be ${allowed.join(" or ")}`,
      { id: c.id, current: c.status, operation: op, allowedFrom: allowed },
    );
  }
}

/** Who may do what: the assignee works on it, the assigner manages it, operators do anything. */
export function assertActor(c: LoadedContract, actor: Principal, op: Operation): void {
  if (actsForAnyone(actor)) return;
  const ok =
    op === "start" || op === "complete" || op === "fail"
      ? actor.name === c.assignee
      : op === "reopen"
        ? actor.name === c.assignee || actor.name === c.assigner
        : actor.name === c.assigner;
  if (!ok) {
    const who = op === "start" || op === "complete" || op === "fail" ? `its assignee '${c.assignee}'` : `its assigner '${c.assigner}'`;
    throw forbidden(`'${actor.name}' may not ${op.replace("_", " ")} contract '${c.id}': only ${who} or an operator may`, {
      id: c.id,
      operation: op,
      principal: actor.name,
    });
  }
}

export async function setStatus(
  tx: WriteTx,
  c: LoadedContract,
  to: ContractStatus,
  reason: string | null,
  extra: { sets?: string; params?: unknown[]; payload?: Record<string, unknown> } = {},
): Promise<void> {
  const from = c.status;
  await tx.run(
    `UPDATE "Contract" SET "status" = ?, "statusReason" = ?, "updatedAt" = ?${extra.sets ? `, ${extra.sets}` : ""} WHERE "pk" = ?`,
    [to, reason, tx.now, ...((extra.params ?? []) as never[]), c.pk],
  );
  c.status = to;
  c.statusReason = reason;
  await tx.emit({
    teamId: c.team,
    type: "contract.status_changed",
    subject: `contract:${c.id}`,
    payload: { id: c.id, from, to, reason, assignee: c.assignee, retryCount: c.retryCount, ...extra.payload },
  });
}
