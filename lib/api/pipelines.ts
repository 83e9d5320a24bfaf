/**
 * Pipeline rules (docs/domain.md#pipelines): `{trigger, condition?, action, rateLimit?}`. Conditions are CEL
 * expressions and string fields of actions may contain `${…}` templates; both are parsed and
 * type-checked when the pipeline is created (server/domain/pipelines/expressions.ts).
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { TypeName } from "./artifacts.ts";
import { CreateContractInput } from "./contracts.ts";
import { Cursor, FieldIssue, Limit, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";
import { EVENTS, EventTypeName } from "./events.ts";
import { STATE_STATUSES } from "./knowledge.ts";

export const TRIGGER_TYPES = [
  "artifact_published",
  "artifact_version_bumped",
  "contract_completed",
  "contract_failed",
  "contract_reopened",
  "artifact_stale",
  "message_received",
  "state_updated",
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const Trigger = z.object({
  type: z.enum(TRIGGER_TYPES),
  artifactType: TypeName.optional(),
  artifactId: EntityId.optional(),
  contractId: EntityId.optional(),
  /** Who caused the event: the publisher of an artifact, the sender of a message, … */
  publisher: MemberName.optional(),
  /** message_received only: the recipient. */
  to: MemberName.optional(),
  /** state_updated only: the poster's roster role and the update's status (docs/knowledge.md#state-updates). */
  role: z.string().max(200).optional(),
  status: z.enum(STATE_STATUSES, { error: `must be one of ${STATE_STATUSES.join(", ")}` }).optional(),
});
export type Trigger = z.infer<typeof Trigger>;

/** What a trigger's events are about: it decides the variables a rule sees and the filters it takes. */
export type Scope = "artifact" | "contract" | "message" | "state";

export function scopeOf(trigger: TriggerType): Scope {
  if (trigger.startsWith("contract_")) return "contract";
  if (trigger === "state_updated") return "state";
  return trigger === "message_received" ? "message" : "artifact";
}

/** Filters that make sense for each kind of trigger; others are refused when a pipeline is created. */
export const FILTERS: Record<Scope, ReadonlyArray<Exclude<keyof Trigger, "type">>> = {
  artifact: ["artifactType", "artifactId", "publisher"],
  contract: ["contractId", "publisher"],
  message: ["publisher", "to"],
  state: ["role", "status", "publisher"],
};

// Expressions are short by nature; anything longer is refused before parsing.
export const MAX_EXPRESSION_CHARS = 4096;
const Template = z
  .string()
  .min(1, { error: "must not be empty" })
  .max(MAX_EXPRESSION_CHARS, { error: `must be at most ${MAX_EXPRESSION_CHARS} characters` });

/** create_contract takes a contract like contract_create; its string fields may be templates. */
const ContractTemplate = z.object({
  id: Template,
  title: Template,
  assignee: Template,
  description: Template.optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  dependencies: CreateContractInput.shape.dependencies.optional(),
  expectedOutputs: CreateContractInput.shape.expectedOutputs.optional(),
  acceptanceCriteria: CreateContractInput.shape.acceptanceCriteria.optional(),
  priority: CreateContractInput.shape.priority.optional(),
  timeoutMs: CreateContractInput.shape.timeoutMs,
  maxRetries: CreateContractInput.shape.maxRetries.optional(),
});

export const Action = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("notify_session"), target: Template, message: Template }),
    z.object({ type: z.literal("send_to_session"), target: Template, message: Template }),
    z.object({ type: z.literal("broadcast"), message: Template }),
    z.object({ type: z.literal("reopen_contract"), contractId: Template, reason: Template }),
    z.object({ type: z.literal("create_contract"), contract: ContractTemplate }),
    z.object({ type: z.literal("invalidate_downstream"), artifactId: Template.optional() }),
  ],
  { error: "must be one of notify_session, send_to_session, broadcast, reopen_contract, create_contract, invalidate_downstream" },
);
export type Action = z.infer<typeof Action>;

export const Rule = z.object({
  name: z.string().max(200).optional(),
  trigger: Trigger,
  condition: z
    .string()
    .max(MAX_EXPRESSION_CHARS, { error: `must be at most ${MAX_EXPRESSION_CHARS} characters` })
    .optional(),
  action: Action,
  /** At most `max` executions of this rule per `perSeconds`; more are logged as rate_limited. */
  rateLimit: z.object({ max: z.number().int().min(1).max(100_000), perSeconds: z.number().int().min(1).max(86_400) }).optional(),
});
export type Rule = z.infer<typeof Rule>;

export const CreatePipelineInput = z.object({
  team: TeamParam,
  id: EntityId,
  rules: z.array(Rule).min(1, { error: "needs at least one rule" }).max(100),
  status: z.enum(["active", "paused"]).default("active"),
});
export type CreatePipelineInput = z.infer<typeof CreatePipelineInput>;

/** A pipeline's rules replaced: the same schema and checks as creating it (docs/domain.md#editing-a-pipeline). */
export const UpdatePipelineInput = z.object({ team: TeamParam, id: EntityId, rules: CreatePipelineInput.shape.rules });
export type UpdatePipelineInput = z.infer<typeof UpdatePipelineInput>;

/** Rules (and optionally an id) as typed so far: checked like a create, answered with every issue instead of refused. */
export const ValidatePipelineInput = z.object({ team: TeamParam, id: z.unknown().optional(), rules: z.unknown() });
export type ValidatePipelineInput = z.infer<typeof ValidatePipelineInput>;

export const PipelineRefInput = z.object({ team: TeamParam, id: EntityId });
export type PipelineRefInput = z.infer<typeof PipelineRefInput>;

export const PipelineLogInput = PipelineRefInput.extend({ limit: Limit, cursor: Cursor });
export type PipelineLogInput = z.infer<typeof PipelineLogInput>;

/**
 * A made-up event to try a rule against, shaped like the event log's rows: a type of the catalog and
 * a payload that fits its schema (lib/api/events.ts); the payload may say more (what the row would).
 */
export const SampleEvent = z
  .object({
    type: EventTypeName,
    subject: z.string().max(300).default(""),
    principal: MemberName.or(z.string().regex(/^[a-z]+:[a-z0-9._-]+$/)).default("operator"),
    payload: z.record(z.string(), z.unknown()).default({}),
    depth: z.number().int().min(0).default(0),
    /** For artifact events: the version's data, as if it had been published. */
    data: z.unknown().optional(),
  })
  .superRefine((s, ctx) => {
    const checked = EVENTS[s.type].safeParse(s.payload);
    for (const issue of checked.error?.issues ?? []) ctx.addIssue({ ...issue, path: ["payload", ...issue.path] });
  });
export type SampleEvent = z.infer<typeof SampleEvent>;

export const DryRunInput = z
  .object({ team: TeamParam, rule: Rule, event: SampleEvent.optional(), eventId: z.number().int().min(1).optional() })
  .refine((v) => (v.event === undefined) !== (v.eventId === undefined), {
    error: "give exactly one of event (a sample) or eventId (a logged event)",
    path: ["event"],
  });
export type DryRunInput = z.infer<typeof DryRunInput>;

/** The logged events a trigger fires on and its filters accept, newest first: what a dry run can be tried on. */
export const MatchingEventsInput = z.object({ team: TeamParam, trigger: Trigger, limit: z.number().int().min(1).max(100).default(20) }).strict();
export type MatchingEventsInput = z.infer<typeof MatchingEventsInput>;

// ── Responses ──

export const PipelineView = z.object({
  id: z.string(),
  team: z.string(),
  status: z.enum(["active", "paused"]),
  rules: z.array(Rule),
  createdBy: z.string(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  /** Executions so far by outcome (executed, condition_false, failed, rate_limited, …). */
  executions: z.record(z.string(), z.number().int()),
});
export type PipelineView = z.output<typeof PipelineView>;

/** One rule run on one event: what it did, or why it did nothing. */
export const ExecutionView = z.object({
  id: z.number().int(),
  pipeline: z.string(),
  /** The rule's index in the pipeline's rules. */
  rule: z.number().int(),
  ruleName: z.string().nullable(),
  eventId: z.number().int(),
  /** null when the event is no longer in the log. */
  eventType: z.string().nullable(),
  /** What the event was about (`artifact:api-spec`, `contract:build-api`, `session:qa`); null as eventType. */
  eventSubject: z.string().nullable(),
  conditionResult: z.boolean().nullable(),
  action: z.string(),
  outcome: z.string(),
  detail: z.unknown(),
  error: z.string().nullable(),
  durationMs: z.number(),
  at: IsoDate,
});
export type ExecutionView = z.output<typeof ExecutionView>;

export const MatchingEvents = z.object({
  events: z.array(
    z.object({
      id: z.number().int(),
      type: z.string(),
      subject: z.string(),
      principal: z.string(),
      /** A message's recipient; null for other events. */
      to: z.string().nullable(),
      at: IsoDate,
    }),
  ),
  /** Logged events of the trigger's type that were looked at. */
  scanned: z.number().int(),
  /** Every event of that type was looked at: there are no more matches than these. */
  complete: z.boolean(),
});
export type MatchingEvents = z.output<typeof MatchingEvents>;

/** The pipeline and one page of its execution log, newest first. */
export const PipelineDetail = PipelineView.extend({ log: z.array(ExecutionView), nextCursor: z.number().int().nullable() });
export type PipelineDetail = z.output<typeof PipelineDetail>;

export const PipelineDeleted = z.object({ deleted: z.string() });

/** Everything creating these rules would refuse, field by field. */
export const PipelineValidation = z.object({ valid: z.boolean(), issues: z.array(FieldIssue) });
export type PipelineValidation = z.output<typeof PipelineValidation>;

/** What one rule would do for one event; nothing is written. */
export const DryRunResult = z.object({
  triggerMatched: z.boolean(),
  /** Why the trigger did not fire. */
  reason: z.string().optional(),
  conditionResult: z.boolean().nullable(),
  conditionError: z.string().optional(),
  /** The action with its templates filled in; null when nothing would run. */
  action: z.record(z.string(), z.unknown()).nullable(),
  actionError: z.string().optional(),
});
export type DryRunResult = z.output<typeof DryRunResult>;
