/** The home page's read model (docs/overview.md): what exists, what needs a person and what it cost, per team. */
import { AccountHold } from "./limits.ts";
import { z } from "zod";
import { BudgetView } from "./budgets.ts";
import { ContractStatus } from "./contracts.ts";
import { IsoDate } from "./endpoint.ts";
import { StaleArtifact } from "./lineage.ts";

// ── Responses ──

export const TeamSummary = z.object({
  id: z.string(),
  archived: z.boolean(),
  artifacts: z.number().int(),
  contracts: z.number().int(),
  events: z.number().int(),
});
export type TeamSummary = z.output<typeof TeamSummary>;

/**
 * Items that need a person for the same reason, as one row: the cause in words (what the items
 * have in common), how many there are, and the head (at most 50) of them.
 */
const causeGroup = <T extends z.ZodType>(item: T) => z.object({ cause: z.string(), count: z.number().int(), items: z.array(item) });
export type CauseGroup<T> = z.output<ReturnType<typeof causeGroup<z.ZodType<T>>>>;

export const ApprovalItem = z.object({
  id: z.number().int(),
  session: z.string(),
  toolName: z.string(),
  /** `{}` unless the caller may decide the approval (docs/security.md#capabilities). */
  input: z.record(z.string(), z.unknown()),
  reason: z.string(),
  createdAt: IsoDate,
  expiresAt: IsoDate,
});
export type ApprovalItem = z.output<typeof ApprovalItem>;

/**
 * Everything that went stale through one upstream change: `root` is the version that changed and
 * `current` what its artifact has now (null when every version was rolled back). An artifact with
 * several such causes is in each of their groups.
 */
export const StaleCause = causeGroup(StaleArtifact).extend({
  kind: z.enum(["superseded", "rolled_back", "invalidated"]),
  root: z.string(),
  current: z.string().nullable(),
});
export type StaleCause = z.output<typeof StaleCause>;

/**
 * What in a team needs a person now, grouped by cause, the largest group first (docs/overview.md):
 * approvals by the tool they wait on, sessions by what is wrong, failed contracts by their reason,
 * stale artifacts by the upstream version change that made them stale, budgets by used up or past
 * their warning.
 */
export const Attention = z.object({
  approvals: z.array(causeGroup(ApprovalItem)),
  stalledSessions: z.array(causeGroup(z.object({ name: z.string(), status: z.string(), stalledAt: IsoDate }))),
  /** `problem` says what is wrong in words: "cost limit: $0.40 spent of $0.05", "last turn failed: …". */
  sessionProblems: z.array(
    causeGroup(z.object({ name: z.string(), status: z.string(), exitReason: z.string().nullable(), problem: z.string(), updatedAt: IsoDate })),
  ),
  failedContracts: z.array(
    causeGroup(z.object({ id: z.string(), title: z.string(), assignee: z.string(), statusReason: z.string().nullable(), updatedAt: IsoDate })),
  ),
  staleArtifacts: z.array(StaleCause),
  /** Budgets at or past their warning in the window counted now; `usedUp` ones stop every turn charged to them. */
  budgets: z.array(causeGroup(BudgetView)),
  /**
   * The accounts the team's sessions run on whose usage window is used up (`limited`: one row each, with the reset and
   * the sessions it holds, which are not listed again among the problems) or filling up (`warning`) (docs/limits.md).
   */
  accounts: z.array(AccountHold),
});
export type Attention = z.output<typeof Attention>;

/**
 * One member's or contract's cost beside its budget. With a budget, `costUsd` is what it spent in
 * the budget's `window` (this month for a monthly one), the figure the budget is held to; without
 * one, everything it spent (`window: "lifetime"`).
 */
export const ScopeCost = z.object({ name: z.string(), costUsd: z.number(), window: z.string(), budgetUsd: z.number().nullable() });
export type ScopeCost = z.output<typeof ScopeCost>;

/**
 * `perModel`: the sessions' costs by the model their CLI reported (`default` before any reported
 * one). `perRuntime`: the same by the agent they run (docs/runtimes.md). `perDay`: UTC days (`2026-11-24`), consecutive, zeros filled in. `budgets`: every budget of
 * the team with what it spent and has left in the window counted now.
 */
export const Costs = z.object({
  totalUsd: z.number(),
  perSession: z.array(z.object({ name: z.string(), status: z.string(), costUsd: z.number() })),
  perMember: z.array(ScopeCost),
  perContract: z.array(ScopeCost),
  perModel: z.array(z.object({ model: z.string(), sessions: z.number().int(), costUsd: z.number() })),
  perRuntime: z.array(z.object({ runtime: z.string(), sessions: z.number().int(), costUsd: z.number() })),
  perDay: z.array(z.object({ day: z.string(), costUsd: z.number() })),
  budgets: z.array(BudgetView),
});
export type Costs = z.output<typeof Costs>;

export const Overview = z.object({
  teams: z.array(TeamSummary),
  team: z.string(),
  contractsByStatus: z.record(ContractStatus, z.number().int()),
  attention: Attention,
  costs: Costs,
});
export type Overview = z.output<typeof Overview>;
