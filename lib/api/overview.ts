/** The home page's read model (docs/domain.md#overview): what exists, what needs a person and what it cost, per team. */
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

/** What in a team needs a person now; each list is the head (at most 50) of what the page behind its link shows. */
export const Attention = z.object({
  /** `input` is `{}` unless the caller may decide the approval (docs/security.md#capabilities). */
  approvals: z.array(
    z.object({
      id: z.number().int(),
      session: z.string(),
      toolName: z.string(),
      input: z.record(z.string(), z.unknown()),
      reason: z.string(),
      createdAt: IsoDate,
      expiresAt: IsoDate,
    }),
  ),
  stalledSessions: z.array(z.object({ name: z.string(), status: z.string(), stalledAt: IsoDate })),
  /** `problem` says what is wrong in words: "cost limit: $0.40 spent of $0.05", "last turn failed: …". */
  sessionProblems: z.array(z.object({ name: z.string(), status: z.string(), exitReason: z.string().nullable(), problem: z.string(), updatedAt: IsoDate })),
  failedContracts: z.array(z.object({ id: z.string(), title: z.string(), assignee: z.string(), statusReason: z.string().nullable(), updatedAt: IsoDate })),
  staleArtifacts: z.array(StaleArtifact),
  /** Budgets at or past their warning in the window counted now; `usedUp` ones stop every turn charged to them. */
  budgets: z.array(BudgetView),
});
export type Attention = z.output<typeof Attention>;

/**
 * One member's or contract's cost beside its budget. With a budget, `costUsd` is what it spent in
 * the budget's `window` (this month for a monthly one), the figure the budget is held to; without
 * one, everything it spent (`window: "lifetime"`).
 */
export const ScopeCost = z.object({ name: z.string(), costUsd: z.number(), window: z.string(), budgetUsd: z.number().nullable() });
export type ScopeCost = z.output<typeof ScopeCost>;

/** `perDay`: UTC days (`2026-11-24`), consecutive, zeros filled in. */
export const Costs = z.object({
  totalUsd: z.number(),
  perSession: z.array(z.object({ name: z.string(), status: z.string(), costUsd: z.number() })),
  perMember: z.array(ScopeCost),
  perContract: z.array(ScopeCost),
  perDay: z.array(z.object({ day: z.string(), costUsd: z.number() })),
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
