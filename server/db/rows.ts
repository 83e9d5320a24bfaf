/**
 * Row types, one per model of prisma/schema.prisma, taken from Prisma's generated models so that the SQL layer and the
 * schema cannot drift apart silently: a renamed or retyped column breaks type-checking where it is read. They are the
 * rows as the adapters give them (./connection.ts): a Boolean column reads as 1/0 on both databases. A query that
 * reads some columns, or adds computed ones, types its row as `Pick<XRow, …>` and `& { computed: … }`.
 *
 * JSON text columns are read through `jsonColumn` with their zod schema, never cast.
 */
import { z } from "zod";
import type {
  AccountLimit,
  Approval,
  Artifact,
  ArtifactRead,
  ArtifactTag,
  ArtifactType,
  ArtifactVersion,
  Budget,
  ChatBlock,
  Checkpoint,
  Contract,
  ContractDependency,
  ContractWatch,
  Event,
  Exploration,
  GateState,
  Hub,
  Interaction,
  LineageEdge,
  Member,
  Message,
  Pipeline,
  PipelineCursor,
  PipelineExecution,
  PortLease,
  Principal,
  ProcessOutput,
  SafetyViolation,
  Session,
  Snapshot,
  StaleMark,
  StateUpdate,
  Team,
  TeamGrant,
  Token,
  TranscriptEntry,
  Webhook,
  WebhookCursor,
  WebhookDelivery,
  Wisdom,
  WisdomLink,
  Worktree,
} from "../generated/prisma/client.ts";

/** A Boolean column as both adapters read it: 1/0 (docs/postgres.md). */
type AsRead<M> = { [K in keyof M]: [M[K]] extends [boolean] ? number : [M[K]] extends [boolean | null] ? number | null : M[K] };

export type AccountLimitRow = AsRead<AccountLimit>;
export type ApprovalRow = AsRead<Approval>;
export type ArtifactRow = AsRead<Artifact>;
export type ArtifactReadRow = AsRead<ArtifactRead>;
export type ArtifactTagRow = AsRead<ArtifactTag>;
export type ArtifactTypeRow = AsRead<ArtifactType>;
export type ArtifactVersionRow = AsRead<ArtifactVersion>;
export type BudgetRow = AsRead<Budget>;
export type ChatBlockRow = AsRead<ChatBlock>;
export type CheckpointRow = AsRead<Checkpoint>;
export type ContractRow = AsRead<Contract>;
export type ContractDependencyRow = AsRead<ContractDependency>;
export type ContractWatchRow = AsRead<ContractWatch>;
export type EventRow = AsRead<Event>;
export type ExplorationRow = AsRead<Exploration>;
export type GateStateRow = AsRead<GateState>;
export type HubRow = AsRead<Hub>;
export type InteractionRow = AsRead<Interaction>;
export type LineageEdgeRow = AsRead<LineageEdge>;
export type MemberRow = AsRead<Member>;
export type MessageRow = AsRead<Message>;
export type PipelineRow = AsRead<Pipeline>;
export type PipelineCursorRow = AsRead<PipelineCursor>;
export type PipelineExecutionRow = AsRead<PipelineExecution>;
export type PortLeaseRow = AsRead<PortLease>;
export type PrincipalRow = AsRead<Principal>;
export type ProcessOutputRow = AsRead<ProcessOutput>;
export type SafetyViolationRow = AsRead<SafetyViolation>;
export type SessionRow = AsRead<Session>;
export type SnapshotRow = AsRead<Snapshot>;
export type StaleMarkRow = AsRead<StaleMark>;
export type StateUpdateRow = AsRead<StateUpdate>;
export type TeamRow = AsRead<Team>;
export type TeamGrantRow = AsRead<TeamGrant>;
export type TokenRow = AsRead<Token>;
export type TranscriptEntryRow = AsRead<TranscriptEntry>;
export type WebhookRow = AsRead<Webhook>;
export type WebhookCursorRow = AsRead<WebhookCursor>;
export type WebhookDeliveryRow = AsRead<WebhookDelivery>;
export type WisdomRow = AsRead<Wisdom>;
export type WisdomLinkRow = AsRead<WisdomLink>;
export type WorktreeRow = AsRead<Worktree>;

/** A JSON text column read with its schema: a row that does not fit it is an error, never a silently wrong value. */
export const jsonColumn = <S extends z.ZodType>(schema: S, text: string): z.infer<S> => schema.parse(JSON.parse(text));

/** `jsonColumn` for a nullable column. */
export const jsonColumnOrNull = <S extends z.ZodType>(schema: S, text: string | null): z.infer<S> | null => (text === null ? null : jsonColumn(schema, text));

const Strings = z.array(z.string());
/** A JSON text column holding a list of strings (a session's tools, a state update's findings, a decision's alternatives). */
export const stringsOf = (text: string): string[] => jsonColumn(Strings, text);
