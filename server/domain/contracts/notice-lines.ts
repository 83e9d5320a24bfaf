/**
 * What a contract notice says (notices.ts collects them). One contract's net change in a
 * transaction, its state before and after, decides who hears about it and whether it gives them
 * something to do; the line says what happened, who did it and why, and what to do now, so a
 * member reading its inbox cold (no live session, no memory of the contract) can act on it.
 */
import type { ContractView } from "../../../lib/api/contracts.ts";

export type ContractPoint = { status: string; assignee: string };

/**
 * `holder`: the assignee after the change; `loser`: the assignee before it, when the contract
 * left them. `actionable`: something for them to do now, which is what wakes a live member.
 */
export type Target = { to: string; as: "holder" | "loser"; actionable: boolean };

/**
 * Nobody is told what they did themselves (their command's result says so), except that a
 * contract of theirs became ready as a consequence (`direct`: the change was the command's own
 * object, a creation or a reopen, not a cascade): that is work to pick up, whoever caused it.
 */
export function targetsOf(before: ContractPoint | null, after: ContractPoint | null, actor: string, direct: boolean): Target[] {
  const targets: Target[] = [];
  if (after && (!before || before.assignee !== after.assignee || before.status !== after.status)) {
    const wasWorking = before?.assignee === after.assignee && before.status === "in_progress";
    const actionable = after.status === "ready" || after.status === "in_progress" || (wasWorking && after.status !== "completed");
    if (after.assignee !== actor || (after.status === "ready" && !direct)) targets.push({ to: after.assignee, as: "holder", actionable });
  }
  if (before && (!after || after.assignee !== before.assignee) && before.assignee !== actor) {
    targets.push({ to: before.assignee, as: "loser", actionable: before.status === "in_progress" });
  }
  return targets;
}

/** Why it changed, beyond the before/after states. */
export type Cause = {
  /** The principal that made the change (the message's sender). */
  actor: string;
  /** The route it took when that is not the actor itself, e.g. `pipeline:ci-loop`. */
  via: string | null;
  /** A rollback or replay: the header names it, and states come from the restored snapshot. */
  rewind: boolean;
  created: boolean;
  reopen: { reason: string } | null;
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const named = (c: Pick<ContractView, "id" | "title">) => `'${c.id}' (${clip(c.title, 120)})`;
const by = (cause: Cause) => `${cause.actor}${cause.via ? ` through ${cause.via}` : ""}`;

function dependencyList(c: ContractView): string {
  const refs = c.dependencies.map((d) => (d.type === "contract" ? d.contractId : `${d.artifactId}${d.minVersion ? `@v${d.minVersion}` : ""}`));
  if (refs.length === 0) return "its dependencies are";
  const shown = refs.slice(0, 5).join(", ") + (refs.length > 5 ? ` and ${refs.length - 5} more` : "");
  return `${shown} ${refs.length === 1 ? "is" : "are"}`;
}

/** What the holder does now, from the state the contract is in. */
function whatNow(c: ContractView, wasWorking: boolean): string {
  const publish = `publish its outputs with artifact_publish (contractId "${c.id}")`;
  switch (c.status) {
    case "ready":
      return `It is ready: start it with contract_start({id: "${c.id}"}), do the work, and ${publish}.`;
    case "in_progress":
      return `It is in progress: carry on, and ${publish}.`;
    case "pending":
      return `It is pending until ${dependencyList(c)} done; you will be told when it is ready.${wasWorking ? " Stop working on it for now." : ""}`;
    case "failed":
      return `It has failed${wasWorking ? ": stop working on it" : ""}.`;
    default:
      return "It is completed.";
  }
}

export function holderLine(c: ContractView, before: ContractPoint | null, cause: Cause): string {
  const wasWorking = before?.assignee === c.assignee && before.status === "in_progress";
  let lead: string;
  if (cause.created) {
    const context = typeof c.inputs.context === "string" && c.inputs.context.trim() ? ` Context: "${clip(c.inputs.context.trim(), 300)}".` : "";
    const priority = c.priority === "high" || c.priority === "critical" ? `, priority ${c.priority}` : "";
    lead = `${by(cause)} created contract ${named(c)} for you${priority}.${context}`;
  } else if (!before) {
    lead = `Contract ${named(c)} is back.`;
  } else if (before.assignee !== c.assignee) {
    lead = `Contract ${named(c)} is now yours${cause.rewind ? "" : `, reassigned by ${by(cause)}`} (it was ${before.assignee}'s).`;
  } else if (cause.reopen) {
    lead = `${by(cause)} reopened contract ${named(c)} (reopen ${c.retryCount} of at most ${c.maxRetries}), reason: ${clip(cause.reopen.reason, 500)}.`;
  } else {
    lead = `Contract ${named(c)}: ${before.status} → ${c.status}${c.statusReason ? ` (${clip(c.statusReason, 500)})` : ""}.`;
  }
  return `${lead} ${whatNow(c, wasWorking)}`;
}

/** `now`: the contract after the change; null when it no longer exists (a rollback removed it). */
export function loserLine(id: string, before: ContractPoint, now: ContractView | null, cause: Cause): string {
  const stop = before.status === "in_progress" ? " Stop working on it." : "";
  if (!now) return `Contract '${id}' was removed: it is not in the restored state.${stop}`;
  const who = cause.rewind ? `it is now ${now.assignee}'s` : `${by(cause)} reassigned it to ${now.assignee}`;
  return `Contract ${named(now)} is no longer yours: ${who}.${stop}`;
}

/** The operator feed's copy of a creation (docs/domain.md#notices). */
export function creationLine(c: ContractView, cause: Cause): string {
  return `${by(cause)} created contract ${named(c)} for ${c.assignee}; it is ${c.status.replace("_", " ")}.`;
}
