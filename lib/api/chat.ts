/**
 * Team chat (docs/domain.md#chat) inputs, shared by the HTTP API, the CLI and the MCP tools. The sender is never
 * an input: it is always the calling principal. Objects are strict, so a misspelt field (or a
 * `from`) is refused instead of silently ignored.
 */
import { z } from "zod";
import { MemberName } from "../ids.ts";
import { Flag, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

// Messages are short (docs/architecture.md#input-limits): coordination notes; real content belongs in artifacts.
export const MAX_MESSAGE_CHARS = 10_000;

export const ASK_TIMEOUT = { defaultSeconds: 120, minSeconds: 1, maxSeconds: 600 } as const;
export const INBOX_PAGE = { default: 50, max: 500 } as const;

export const MessageText = z
  .string({ error: "must be a string" })
  .max(MAX_MESSAGE_CHARS, { error: `must be at most ${MAX_MESSAGE_CHARS} characters` })
  .refine((s) => s.trim().length > 0, { error: "must not be empty" });

const MessageId = z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1, { error: "must be a message id (1 or more)" });

export const SendMessageInput = z.strictObject({ team: TeamParam, to: MemberName, message: MessageText });
export type SendMessageInput = z.infer<typeof SendMessageInput>;

export const BroadcastInput = z.strictObject({ team: TeamParam, message: MessageText });
export type BroadcastInput = z.infer<typeof BroadcastInput>;

export const ReplyInput = z.strictObject({ team: TeamParam, messageId: MessageId, message: MessageText });
export type ReplyInput = z.infer<typeof ReplyInput>;

export const AskInput = z.strictObject({
  team: TeamParam,
  to: MemberName,
  question: MessageText,
  timeoutSeconds: z
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(ASK_TIMEOUT.minSeconds, { error: `must be at least ${ASK_TIMEOUT.minSeconds}` })
    .max(ASK_TIMEOUT.maxSeconds, { error: `must be at most ${ASK_TIMEOUT.maxSeconds}` })
    .default(ASK_TIMEOUT.defaultSeconds),
});
export type AskInput = z.infer<typeof AskInput>;

export const CheckInboxInput = z.strictObject({
  team: TeamParam,
  unreadOnly: Flag.default(false),
  includeArchived: Flag.default(false),
  limit: z
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(INBOX_PAGE.max, { error: `must be at most ${INBOX_PAGE.max}` })
    .default(INBOX_PAGE.default),
  before: MessageId.optional(),
});
export type CheckInboxInput = z.infer<typeof CheckInboxInput>;

/** How many messages wait unread in the caller's own inbox (not archived); counting marks nothing read. */
export const UnreadInput = z.strictObject({ team: TeamParam });
export type UnreadInput = z.infer<typeof UnreadInput>;

/**
 * `notify` and `turn` come from pipelines, `contract` from the hub when a member's contracts change
 * (docs/notices.md); `system` is what rollback notices were before they became `contract` notices,
 * kept so older inboxes still read and filter.
 */
export const MESSAGE_KINDS = ["dm", "broadcast", "ask", "reply", "notify", "turn", "contract", "system"] as const;
export const MessageKind = z.enum(MESSAGE_KINDS, { error: `must be one of ${MESSAGE_KINDS.join(", ")}` });
export type MessageKind = z.infer<typeof MessageKind>;

/** The operator's view of a team's whole conversation; reading it marks nothing read. */
export const TeamMessagesInput = z.strictObject({
  team: TeamParam,
  /** Messages this member sent or received. */
  member: MemberName.optional(),
  kind: MessageKind.optional(),
  /** Only asks nobody has replied to yet. */
  awaitingReply: Flag.default(false),
  limit: z
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(INBOX_PAGE.max, { error: `must be at most ${INBOX_PAGE.max}` })
    .default(100),
  before: MessageId.optional(),
});
export type TeamMessagesInput = z.infer<typeof TeamMessagesInput>;

// ── Responses ──

const Id = z.number().int();

/** A dm, an ask or a reply, as delivered. */
export const Sent = z.object({ messageId: Id, to: z.string(), kind: z.enum(["dm", "ask", "reply"]), sentAt: IsoDate });
export type Sent = z.output<typeof Sent>;

export const Replied = Sent.extend({ kind: z.literal("reply"), replyTo: Id });
export type Replied = z.output<typeof Replied>;

export const Broadcasted = z.object({ messageIds: z.array(Id), recipients: z.array(z.string()), sentAt: IsoDate });
export type Broadcasted = z.output<typeof Broadcasted>;

/** An ask is answered or not: a timeout (or the caller going away) is an answer too, not an error. */
export const AskResult = z.discriminatedUnion("answered", [
  z.object({
    answered: z.literal(true),
    messageId: Id,
    to: z.string(),
    reply: z.object({ from: z.string(), text: z.string(), messageId: Id, at: IsoDate }),
  }),
  z.object({ answered: z.literal(false), messageId: Id, to: z.string(), timedOut: z.boolean(), waitedSeconds: z.number().int() }),
]);
export type AskResult = z.output<typeof AskResult>;

/** A message in the caller's own inbox; `unread` is whether it was unread before this check. */
export const InboxItem = z.object({
  id: Id,
  from: z.string(),
  kind: MessageKind,
  text: z.string(),
  replyTo: Id.nullable(),
  sentAt: IsoDate,
  unread: z.boolean(),
  archived: z.boolean(),
});
export type InboxItem = z.output<typeof InboxItem>;

/** `nextBefore` pages back to older read messages; `unreadLeft` counts unread ones a later check will return. */
export const UnreadCount = z.object({ member: z.string(), unread: z.number().int() });
export type UnreadCount = z.output<typeof UnreadCount>;

export const Inbox = z.object({ member: z.string(), messages: z.array(InboxItem), unreadLeft: z.number().int(), nextBefore: Id.nullable() });
export type Inbox = z.output<typeof Inbox>;

/** One delivery in the team's conversation, with whether it was read and the first reply to it. */
export const TeamMessage = z.object({
  id: Id,
  from: z.string(),
  to: z.string(),
  kind: MessageKind,
  text: z.string(),
  replyTo: Id.nullable(),
  sentAt: IsoDate,
  readAt: IsoDate.nullable(),
  archived: z.boolean(),
  replyId: Id.nullable(),
});
export type TeamMessage = z.output<typeof TeamMessage>;

export const TeamMessages = z.object({ messages: z.array(TeamMessage), nextBefore: Id.nullable() });
export type TeamMessages = z.output<typeof TeamMessages>;
