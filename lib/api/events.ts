/**
 * The event catalog (docs/events.md): every event type the hub appends to its log, with the
 * schema of its payload. `tx.emit` checks a payload against its schema, readers of the log and
 * of /ws parse events through it, so a consumer narrows on `type` and reads typed fields.
 *
 * Payloads are JSON in the log and on the wire; a date in a payload is a Date in code and ISO text
 * in JSON (IsoDate), like everywhere else on the wire.
 */
import { z } from "zod";
import { IsoDate } from "./endpoint.ts";
import { BudgetPeriod, BudgetScope, BudgetUnit } from "./budgets.ts";
import { MessageKind } from "./chat.ts";
import { ContractStatus, ContractView, Dependency } from "./contracts.ts";
import { MemberStatus } from "./roster.ts";
import { Preset, SessionStatus } from "./sessions.ts";
import { CodeMove } from "./worktrees.ts";

const Id = z.object({ id: z.string() });
const Name = z.object({ name: z.string() });
const FieldChanges = z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }));
const Entities = z.object({ contracts: z.array(z.string()), contractsCount: z.number(), pipelines: z.array(z.string()), pipelinesCount: z.number() });
const Rewound = z.object({
  id: z.string(),
  autoSnapshot: z.string(),
  rolledBackVersions: z.array(z.string()),
  rolledBackCount: z.number(),
  reactivatedVersions: z.array(z.string()),
  removed: Entities,
  restored: Entities,
  contractsChanged: z.array(z.string()),
  contractsChangedCount: z.number(),
  /** Each work tree the snapshot recorded: restored, branched (replay), unchanged or missing. */
  code: z.array(CodeMove),
});
const LeadChange = z.object({ team: z.string(), principal: z.string(), by: z.string() });
const BudgetCrossed = z.object({
  scope: BudgetScope,
  /** null for the team's own budget. */
  target: z.string().nullable(),
  /** Events written before budgets could be in tokens carry no unit: they are dollar budgets. */
  unit: BudgetUnit.default("usd"),
  /** The amount in the budget's unit; null in the other. */
  amountUsd: z.number().nullable(),
  amountTokens: z.number().nullable().default(null),
  spentUsd: z.number(),
  spentTokens: z.number().default(0),
  period: BudgetPeriod,
  /** The period's window the notice is for ("lifetime", "2026-05"). */
  window: z.string(),
  warnAt: z.number(),
  session: z.string(),
  member: z.string().nullable(),
  /** The sentence also delivered to the operator and the member. */
  text: z.string(),
});
const GateResult = z.object({
  gate: z.string(),
  passed: z.boolean(),
  failedChecks: z.array(z.enum(["artifacts_exist", "artifacts_valid", "members_idle", "artifacts_read"])),
  gateCount: z.number(),
  recommendation: z.string(),
});
const EndRequest = z.object({ name: z.string(), by: z.string(), reason: z.string().optional() });
const Turn = z.object({ name: z.string(), interactionId: z.number().int() });

export const EVENTS = {
  // ── Artifacts ──
  "artifact.published": z.object({
    artifactId: z.string(),
    version: z.number().int(),
    seq: z.number().int(),
    type: z.string(),
    name: z.string(),
    publisher: z.string(),
    contractId: z.string().nullable(),
    derivedFrom: z.array(z.string()),
    summary: z.string(),
    /** Bytes of the version's JSON data. */
    size: z.number().int(),
  }),
  "artifact.read": z.object({ artifactId: z.string(), version: z.number().int(), reader: z.string() }),
  "artifact.stale": z.object({
    artifactId: z.string(),
    version: z.number().int(),
    reason: z.string(),
    cause: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("invalidated"), by: z.string(), source: z.string() }),
      z.object({ kind: z.literal("superseded"), source: z.string(), previous: z.number().int(), current: z.number().int() }),
    ]),
  }),
  "artifact.rolled_back": z.object({
    artifactId: z.string(),
    versions: z.array(z.number().int()),
    snapshot: z.string(),
    currentVersion: z.number().int().nullable(),
  }),
  "artifact_type.registered": Name,

  // ── Usage limits (docs/limits.md): hub-wide, an account spans teams ──
  "account.limited": z.object({
    account: z.string(),
    label: z.string(),
    window: z.string().nullable(),
    resetsAt: IsoDate.nullable(),
    message: z.string().nullable(),
    /** The session whose turn ran into it. */
    by: z.string(),
  }),
  "account.warning": z.object({
    account: z.string(),
    label: z.string(),
    window: z.string().nullable(),
    resetsAt: IsoDate.nullable(),
    utilization: z.number().nullable(),
  }),
  "account.released": z.object({
    account: z.string(),
    label: z.string(),
    window: z.string().nullable(),
    /** reset: the window reset; early: a person released it; cancelled: a person cancelled the waiting turns. */
    how: z.enum(["reset", "early", "cancelled"]),
    by: z.string(),
    heldMs: z.number(),
    sessions: z.array(z.string()),
  }),

  // ── Contracts ──
  "contract.created": ContractView,
  /** Its assignee was held by a usage limit: the deadline moved by the time held. */
  "contract.deadline_moved": z.object({ id: z.string(), from: IsoDate, to: IsoDate, heldMs: z.number(), reason: z.string() }),
  "contract.status_changed": z.object({
    id: z.string(),
    from: ContractStatus,
    to: ContractStatus,
    reason: z.string().nullable(),
    assignee: z.string(),
    retryCount: z.number().int(),
    /** Set by the operation that caused the change, when it says more than from → to: */
    operation: z.enum(["reopen", "replay"]).optional(),
    /** A replay's re-run: why it runs again, and the re-run contracts whose new outputs it waits for. */
    because: z.string().optional(),
    waitsFor: z.array(z.string()).optional(),
    pinnedInputs: z.array(z.string()).optional(),
    outputs: z.array(z.string()).optional(),
    deadlineAt: IsoDate.nullable().optional(),
    spentUsd: z.number().optional(),
    amountUsd: z.number().optional(),
    spentTokens: z.number().optional(),
    amountTokens: z.number().optional(),
  }),
  "contract.updated": z.object({ id: z.string(), changes: FieldChanges, reason: z.string() }),
  "contract.reassigned": z.object({ id: z.string(), from: z.string(), to: z.string() }),
  "contract.dependencies_changed": z.object({ id: z.string(), added: Dependency.optional(), removed: Dependency.optional() }),

  // ── Sessions ──
  "session.created": z.object({
    name: z.string(),
    kind: z.enum(["session", "delegate", "member"]),
    team: z.string(),
    preset: Preset,
    /** Absent from events written before sessions had runtimes, which all ran claude. */
    runtime: z.string().optional(),
    model: z.string().nullable(),
    workDir: z.string(),
    parent: z.string().nullable(),
    forkFrom: z.string().nullable(),
    by: z.string(),
    spawnedBy: z.string(),
  }),
  "session.queued": z.object({ name: z.string(), position: z.number().int().nullable(), maxLive: z.number().int() }),
  "session.admitted": z.object({ name: z.string(), waitedMs: z.number() }),
  "session.status_changed": z.object({ name: z.string(), from: SessionStatus, to: SessionStatus, reason: z.string().nullable() }),
  "session.started": z.object({
    name: z.string(),
    pid: z.number().int(),
    mode: z.string(),
    sandbox: z.enum(["bubblewrap", "none"]),
    args: z.array(z.string()),
  }),
  "session.message_queued": z.object({ name: z.string(), interactionId: z.number().int(), n: z.number().int(), source: z.string(), chars: z.number().int() }),
  "session.turn_started": Turn.extend({ n: z.number().int() }),
  "session.turn_completed": Turn.extend({
    /** `limit`: the supervisor cut the turn at a limit (`error` says which). */
    status: z.enum(["completed", "error", "interrupted", "limit"]),
    isError: z.boolean(),
    subtype: z.string().nullable(),
    error: z.string().nullable(),
    costUsd: z.number(),
    turns: z.number(),
    durationMs: z.number(),
    empty: z.boolean(),
    toolsUsed: z.array(z.string()),
  }),
  "session.empty_turn": Turn,
  "session.approval_requested": z.object({
    name: z.string(),
    approvalId: z.number().int(),
    toolName: z.string(),
    /** Left out, with `inputHidden`, for readers who do not decide approvals (docs/security.md#capabilities). */
    input: z.record(z.string(), z.unknown()).optional(),
    inputHidden: z.literal(true).optional(),
    reason: z.string(),
    expiresAt: IsoDate,
  }),
  "session.approval_decided": z.object({
    name: z.string(),
    approvalId: z.number().int(),
    requestId: z.string(),
    toolName: z.string(),
    status: z.enum(["allowed", "denied", "timed_out", "cancelled"]),
    decidedBy: z.string(),
    note: z.string().nullable(),
    /** The allowed-tool rule this decision added to the session ("allow this command for this session"). */
    rule: z.string().optional(),
  }),
  "session.problem": z.object({
    name: z.string(),
    /** null: resolved. */
    problem: z.string().nullable(),
    kind: z.enum(["turn_failed", "limit", "failed", "budget", "limited"]).nullable(),
    previous: z.string().nullable(),
  }),
  /** Its turn hit a used-up usage window: the turn waits in the queue, the session is held (docs/limits.md). */
  "session.limited": z.object({
    name: z.string(),
    account: z.string(),
    window: z.string().nullable(),
    resetsAt: IsoDate.nullable(),
    interactionId: z.number(),
  }),
  /** The API refused a turn as rate limited or overloaded and the CLI gave up: the hub sends it again after `delayMs` (docs/limits.md#rate-limits). */
  "session.turn_retry": z.object({
    name: z.string(),
    interactionId: z.number(),
    attempt: z.number(),
    maxAttempts: z.number(),
    delayMs: z.number(),
    status: z.number(),
  }),
  "session.violation": z.object({ name: z.string(), kind: z.enum(["cost", "turns", "timeout", "protected_path"]), detail: z.string() }),
  "session.stalled": z.object({ name: z.string(), silentSince: IsoDate.nullable(), thresholdMs: z.number() }),
  "session.unstalled": Name,
  "session.stop_requested": EndRequest,
  "session.kill_requested": EndRequest,
  "session.resume_requested": z.object({ name: z.string(), claudeSessionId: z.string() }),
  "session.unpaused": Name,
  "session.exited": z.object({
    name: z.string(),
    status: z.enum(["stopped", "killed", "failed", "interrupted"]),
    reason: z.string(),
    problem: z.string().nullable().optional(),
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
    abandonedInteraction: z.number().int().nullable(),
    stderrTail: z.string(),
  }),
  "session.claimed": z.object({ name: z.string(), hub: z.string() }),
  "session.deleted": z.object({
    name: z.string(),
    pk: z.number().int(),
    wasLive: z.boolean(),
    interactions: z.number().int(),
    transcriptEntries: z.number().int(),
    by: z.string(),
  }),

  // ── Work trees (docs/worktrees.md) ──
  "worktree.created": z.object({
    name: z.string(),
    repoDir: z.string(),
    path: z.string(),
    branch: z.string(),
    baseBranch: z.string().nullable(),
    baseCommit: z.string(),
  }),
  "worktree.merged": z.object({
    name: z.string(),
    branch: z.string(),
    baseBranch: z.string(),
    mode: z.enum(["merge", "squash"]),
    /** The base branch's new tip, and the session's work that went into it. */
    commit: z.string(),
    merged: z.string(),
    files: z.number().int(),
    branchDeleted: z.boolean(),
  }),
  "worktree.pruned": z.object({
    name: z.string(),
    branch: z.string(),
    path: z.string(),
    /** Uncommitted work the hub committed on the branch before removing the work tree; null when there was none. */
    savedAs: z.string().nullable(),
    branchDeleted: z.boolean(),
  }),
  /** A rollback put the session back on a branch it had left (the undo of a replay): `previousBranch` keeps the later work. */
  "worktree.switched": z.object({ name: z.string(), path: z.string(), branch: z.string(), previousBranch: z.string() }),
  "worktree.discarded": z.object({ name: z.string(), branch: z.string(), worktreeRemoved: z.boolean(), branchDeleted: z.boolean(), by: z.string() }),
  // ── Runnable work trees (docs/worktrees.md#runnable-work-trees) ──
  "worktree.setup_started": z.object({ name: z.string(), command: z.string(), source: z.string() }),
  /** `error`: "setup failed (exit 3): <last line>" when it failed (a timeout is "setup timed out after …"). */
  "worktree.setup_finished": z.object({
    name: z.string(),
    status: z.enum(["succeeded", "failed"]),
    exitCode: z.number().nullable(),
    durationMs: z.number(),
    error: z.string().nullable(),
  }),
  /** A person asked for setup again (the config re-read from the base branch); the session is resumed to run it. */
  "worktree.setup_requested": z.object({ name: z.string(), by: z.string() }),
  "worktree.run_requested": z.object({ name: z.string(), by: z.string() }),
  "worktree.run_stop_requested": z.object({ name: z.string(), by: z.string() }),
  "worktree.run_started": z.object({ name: z.string(), command: z.string(), port: z.number().nullable() }),
  "worktree.run_exited": z.object({ name: z.string(), status: z.enum(["exited", "stopped"]), exitCode: z.number().nullable(), signal: z.string().nullable() }),
  /** The archive command ran before the work tree was removed; its failure does not keep the tree. */
  "worktree.archived": z.object({ name: z.string(), ok: z.boolean(), exitCode: z.number().nullable(), error: z.string().nullable() }),

  // ── Chat ──
  "message.sent": z.object({
    /** null (and `to` null) when nobody was there to receive it: still on the record. */
    messageId: z.number().int().nullable(),
    from: z.string(),
    to: z.string().nullable(),
    kind: MessageKind,
    text: z.string(),
    replyTo: z.number().int().nullable(),
    actionable: z.boolean().optional(),
  }),
  "inbox.read": z.object({ member: z.string(), messageIds: z.array(z.number().int()), count: z.number().int() }),
  "inbox.archived": z.object({ member: z.string(), archived: z.number().int(), throughMessageId: z.number().int(), keep: z.number().int() }),
  "chat.pair_blocked": z.object({ members: z.tuple([z.string(), z.string()]), exchanges: z.number().int(), windowSeconds: z.number(), until: IsoDate }),

  // ── Roster and continuity ──
  "member.joined": z.object({ name: z.string(), role: z.string(), status: MemberStatus }),
  "member.updated": z.object({ name: z.string(), role: z.string().optional(), status: MemberStatus.optional(), currentTask: z.string().nullable().optional() }),
  "decision.recorded": z.object({
    id: z.number().int(),
    title: z.string(),
    author: z.string(),
    related: z.object({ artifacts: z.array(z.string()), contracts: z.array(z.string()) }),
  }),
  "pattern.registered": z.object({
    name: z.string(),
    outcome: z.enum(["created", "updated", "unchanged"]),
    author: z.string(),
    /** The wisdom entry that holds the new text (absent when unchanged, and in logs from before wisdom). */
    entry: z.number().int().optional(),
  }),
  "wisdom.appended": z.object({ id: z.number().int(), kind: z.enum(["learning", "decision", "convention", "issue"]), title: z.string(), author: z.string() }),
  "state.updated": z.object({
    id: z.number().int(),
    member: z.string(),
    role: z.string(),
    status: z.enum(["in_progress", "completed", "blocked", "failed"]),
    task: z.string(),
    ref: z.string().nullable(),
  }),
  "exploration.recorded": z.object({
    angle: z.string(),
    revision: z.number().int(),
    author: z.string(),
    outcome: z.enum(["created", "updated"]),
    ref: z.string().optional(),
  }),
  "phase_gate.passed": GateResult,
  "phase_gate.failed": GateResult,

  // ── Snapshots ──
  "snapshot.created": z.object({
    id: z.string(),
    label: z.string(),
    kind: z.enum(["manual", "pre-rollback", "pre-replay", "pre-reset"]),
    createdBy: z.string(),
    maxSeq: z.number().int(),
    lastEventId: z.number().int(),
    size: z.number().int(),
    counts: z.object({ contracts: z.number().int(), artifacts: z.number().int(), pipelines: z.number().int(), members: z.number().int() }),
  }),
  "snapshot.deleted": Id,
  "snapshot.rolled_back": Rewound,
  "snapshot.replayed": Rewound.extend({ overridden: z.record(z.string(), FieldChanges), reRun: z.array(z.string()), reRunCount: z.number().int() }),

  // ── Pipelines ──
  "pipeline.created": z.object({ id: z.string(), status: z.enum(["active", "paused"]), rules: z.number().int(), triggers: z.string() }),
  /** The rules were replaced; the ones they replaced are kept here, so the log holds every version of a pipeline. */
  "pipeline.updated": z.object({ id: z.string(), rules: z.number().int(), triggers: z.string(), previousRules: z.array(z.unknown()) }),
  "pipeline.paused": Id,
  "pipeline.resumed": Id,
  "pipeline.deleted": Id,
  "pipeline.executed": z.object({
    pipeline: z.string(),
    rule: z.number().int(),
    ruleName: z.string().nullable(),
    eventId: z.number().int(),
    action: z.string(),
    outcome: z.enum(["executed", "skipped", "failed", "rate_limited", "loop_guard", "condition_error"]),
    conditionResult: z.boolean().nullable(),
    error: z.string().nullable(),
  }),

  // ── Teams, budgets and tokens ──
  "team.created": Id,
  "team.archived": Id,
  "team.settings_changed": z.object({ changes: z.record(z.string(), z.unknown()) }),
  "team.reset": z.object({
    snapshotId: z.string(),
    preserved: z.array(z.string()),
    archived: z.object({ artifacts: z.number().int(), versions: z.number().int(), messages: z.number().int() }),
    removed: z.object({ contracts: z.number().int(), members: z.number().int(), pipelines: z.number().int() }),
  }),
  "team.lead_granted": LeadChange,
  "team.lead_revoked": LeadChange,
  "budget.set": z.object({
    scope: BudgetScope,
    target: z.string().nullable(),
    /** Events written before token budgets carry no unit: they are dollar budgets. */
    unit: BudgetUnit.default("usd"),
    amountUsd: z.number().nullable(),
    amountTokens: z.number().nullable().default(null),
    previousUsd: z.number().nullable(),
    previousTokens: z.number().nullable().default(null),
    period: BudgetPeriod,
    warnAt: z.number(),
    onExceed: z.enum(["fail", "pause"]).nullable(),
    spentUsd: z.number(),
    spentTokens: z.number().default(0),
    by: z.string(),
  }),
  "budget.warning": BudgetCrossed,
  "budget.exhausted": BudgetCrossed,
  "token.issued": z.object({ principal: z.string(), kind: z.enum(["operator", "member", "agent"]), label: z.string() }),
  "token.revoked": z.object({ principal: z.string(), count: z.number().int(), hashes: z.array(z.string()) }),

  // ── Hubs sharing the database (docs/hubs.md) ──
  "hub.started": z.object({ id: z.string(), url: z.string(), host: z.string(), pid: z.number().int(), version: z.string() }),
  "hub.stopped": Id,
  "hub.lost": z.object({ id: z.string(), url: z.string(), heartbeatAt: IsoDate, lostAfterMs: z.number().int(), interrupted: z.array(z.string()) }),

  // ── Notifications (docs/notifications.md): a webhook's URL may hold a token (Slack's, ntfy's), so only its origin is logged ──
  "webhook.created": z.object({
    id: z.string(),
    format: z.enum(["json", "slack", "ntfy"]),
    events: z.array(z.string()),
    enabled: z.boolean(),
    /** Scheme, host and port of its URL; never the path or query. */
    origin: z.string(),
    by: z.string(),
  }),
  "webhook.updated": z.object({
    id: z.string(),
    changed: z.array(z.enum(["url", "events", "enabled"])),
    events: z.array(z.string()),
    enabled: z.boolean(),
    origin: z.string(),
    by: z.string(),
  }),
  /** `dropped`: its deliveries still waiting, removed with it. */
  "webhook.deleted": z.object({ id: z.string(), dropped: z.number().int(), by: z.string() }),
  "webhook.tested": z.object({
    id: z.string(),
    status: z.enum(["delivered", "failed"]),
    responseCode: z.number().int().nullable(),
    error: z.string().nullable(),
    by: z.string(),
  }),
} satisfies Record<string, z.ZodType>;

export type EventType = keyof typeof EVENTS;
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
/** A catalog type, for inputs that name one (a sample event of a pipeline dry run). */
export const EventTypeName = z.enum(EVENT_TYPES as [EventType, ...EventType[]], { error: "must be an event type of the catalog (docs/events.md)" });

/** What an event of type K carries, as code sees it (dates as Date); also what `tx.emit` takes. */
export type PayloadOf<K extends EventType> = z.output<(typeof EVENTS)[K]>;

export type EventOf<K extends EventType> = {
  id: number;
  /** null for hub-wide events (tokens), which belong to no team. */
  teamId: string | null;
  type: K;
  subject: string;
  payload: PayloadOf<K>;
  principal: string;
  /** The event whose pipeline action or cascade wrote this one. */
  causedBy: number | null;
  depth: number;
  at: Date;
};
type EventMap = { [K in EventType]: EventOf<K> };
/** One row of the event log; `HubEventOf<"x.y">` is an event of that type, `HubEvent` any of them (narrow on `type`). */
export type HubEventOf<K extends EventType> = EventMap[K];
export type HubEvent = EventMap[EventType];

/** A type guard for events of the given types: `events.filter(isEvent("session.exited"))`. */
export const isEvent =
  <K extends EventType>(...types: K[]) =>
  (e: HubEvent): e is HubEventOf<K> =>
    (types as readonly EventType[]).includes(e.type);

/** An event built by code generic in its type (tx.emit): TypeScript cannot see on its own that it is the union's member for K. */
export const asHubEvent = <K extends EventType>(e: EventOf<K>): HubEventOf<K> => e as HubEventOf<K>;

const eventSchema = <K extends EventType, A extends z.ZodType<Date, unknown>>(type: K, at: A) =>
  z.object({
    id: z.number().int(),
    teamId: z.string().nullable(),
    type: z.literal(type),
    subject: z.string(),
    payload: EVENTS[type],
    principal: z.string(),
    causedBy: z.number().int().nullable(),
    depth: z.number().int(),
    at,
  });
type EventSchema<A extends z.ZodType<Date, unknown>> = { [K in EventType]: ReturnType<typeof eventSchema<K, A>> }[EventType];

// Built from the catalog rather than written out 60 times; the tuple type is what zod needs to infer the union.
const union = <A extends z.ZodType<Date, unknown>>(at: A) =>
  z.discriminatedUnion("type", EVENT_TYPES.map((t) => eventSchema(t, at)) as unknown as [EventSchema<A>, ...EventSchema<A>[]]);

// Each union is built when it first parses (z.lazy): two unions of every event type cost a process 25 ms at start,
// and most processes (a CLI command, a hub that serves no event list) never parse one.
/** An event as JSON carries it (/ws, the events endpoint): `at` and payload dates as ISO text. */
export const WireEvent = z.lazy(() => union(IsoDate));
/** An event read from the log: `at` is already a Date, the payload is the parsed JSON text. */
export const LoggedEvent = z.lazy(() => union(z.date()));

// ── Responses ──

/** `GET /api/events`: events as the caller may see them; `lastId` is the last one read (hidden ones included), for the next cursor. */
export const EventList = z.object({ events: z.array(WireEvent), lastId: z.number().int().nullable() });
export type EventList = z.output<typeof EventList>;
