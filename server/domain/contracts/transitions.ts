/**
 * The contract state machine (docs/domain.md#contract-states). Every operation names the states it may start from; anything
 * else is an `illegal_transition` error that says where the contract is now.
 *
 *   pending → ready → in_progress → completed | failed;  completed | failed → (reopen) → pending | ready
 */
import type { WriteTx } from "../../db/database.ts";
import type { PayloadOf } from "../../events/types.ts";
import type { Sql } from "../../db/connection.ts";
import { EMPTY, sql, type Query } from "../../db/sql.ts";
import { DomainError } from "../../errors.ts";
import type { ContractStatus } from "../../../lib/api/contracts.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import type { LoadedContract } from "./contracts.repo.ts";
import { noteChange } from "./notices.ts";

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
    throw new DomainError("illegal_transition", `contract '${c.id}' is ${c.status}; ${op.replace("_", " ")} needs it to be ${allowed.join(" or ")}`, {
      id: c.id,
      current: c.status,
      operation: op,
      allowedFrom: allowed,
    });
  }
}

const WORK: Operation[] = ["start", "complete", "fail"];

/** Who may do what (capabilities.ts): the assignee works on it, the assigner manages it, a lead or the operator does anything. */
export async function assertActor(s: Sql, c: LoadedContract, actor: Principal, op: Operation): Promise<void> {
  const assignee = WORK.includes(op) || op === "reopen";
  const assigner = !WORK.includes(op);
  const owners = [assignee ? c.assignee : null, assigner ? c.assigner : null];
  const parties = [assignee ? `assignee '${c.assignee}'` : "", assigner ? `assigner '${c.assigner}'` : ""].filter(Boolean).join(", ");
  await authorize(s, actor, `contract.${op}`, { team: c.team, owners, label: `'${c.id}' (${parties})` });
}

/** What an operation adds to `contract.status_changed` beyond the move itself (lib/api/events.ts). */
type StatusExtras = Omit<PayloadOf<"contract.status_changed">, "id" | "from" | "to" | "reason" | "assignee" | "retryCount">;

export async function setStatus(
  tx: WriteTx,
  c: LoadedContract,
  to: ContractStatus,
  reason: string | null,
  extra: { sets?: Query; payload?: StatusExtras } = {},
): Promise<void> {
  await tx.run(
    sql`UPDATE "Contract" SET "status" = ${to}, "statusReason" = ${reason}, "updatedAt" = ${tx.now}${extra.sets ? sql`, ${extra.sets}` : EMPTY} WHERE "pk" = ${c.pk}`,
  );
  await announceStatus(tx, c, to, reason, extra.payload);
}

/**
 * A status change without its row: noted for the notices, applied in memory, logged. For a caller that writes the
 * rows of many changes at once (resolution, docs/domain.md#resolution); everyone else calls setStatus.
 */
export async function announceStatus(tx: WriteTx, c: LoadedContract, to: ContractStatus, reason: string | null, payload?: StatusExtras): Promise<void> {
  const from = c.status;
  noteChange(tx, c);
  c.status = to;
  c.statusReason = reason;
  await tx.emit({
    teamId: c.team,
    type: "contract.status_changed",
    subject: `contract:${c.id}`,
    payload: { id: c.id, from, to, reason, assignee: c.assignee, retryCount: c.retryCount, ...payload },
  });
}
