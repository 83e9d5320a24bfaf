/**
 * Outgoing webhooks of a team (docs/notifications.md): where chosen events are delivered, in which body, and the log
 * of those deliveries. A webhook's secret is in the answer that creates it and nowhere else: not in its view, not in
 * an event, not in a log line.
 */
import { z } from "zod";
import { EntityId } from "../ids.ts";
import { Cursor, Flag, Limit, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";
import { EVENTS, EVENT_TYPES, type EventType } from "./events.ts";

/** `json`: the event as JSON, signed; `slack`: a Slack incoming-webhook body `{text}`; `ntfy`: an ntfy publish (plain text, Title/Priority/Tags). */
export const WEBHOOK_FORMATS = ["json", "slack", "ntfy"] as const;
export const WebhookFormat = z.enum(WEBHOOK_FORMATS, { error: `must be one of ${WEBHOOK_FORMATS.join(", ")}` });
export type WebhookFormat = z.infer<typeof WebhookFormat>;

// Bounds (docs/architecture.md#input-limits): a URL longer than browsers accept is a mistake, and a webhook listens to a
// handful of events; a team needs a few webhooks, not hundreds.
export const MAX_WEBHOOK_URL = 2048;
export const MAX_WEBHOOK_EVENTS = 50;
export const MAX_WEBHOOKS_PER_TEAM = 20;
const MAX_SELECTOR = 100;

/**
 * Event types that belong to no team (docs/events.md): the operator's business (docs/security.md#capabilities), so
 * only the operator may point a webhook at them, and they reach every webhook that lists them, whatever its team.
 */
export const HUB_WIDE_PREFIXES = ["account.", "hub.", "token."] as const;
export const isHubWide = (type: string) => HUB_WIDE_PREFIXES.some((p) => type.startsWith(p));

/**
 * Types with a qualifier, `type:value`: only the events whose `field` holds that value (`contract.status_changed:failed`,
 * a failed contract). The values are the field's enum in the catalog, so they follow it.
 */
export const QUALIFIERS: Partial<Record<EventType, string>> = {
  "contract.status_changed": "to",
  "session.status_changed": "to",
  "session.exited": "status",
  "session.turn_completed": "status",
};

/** Names people reach for that the catalog spells otherwise: the refusal says which to use. */
const SPELLED_OTHERWISE: Record<string, string> = {
  "contract.failed": "contract.status_changed:failed",
  "contract.completed": "contract.status_changed:completed",
  "session.failed": "session.exited:failed",
  "approval.requested": "session.approval_requested",
  "session.approval": "session.approval_requested",
};

/** The values a qualifier of `type` may take; empty when the type takes none. */
export function qualifierValues(type: EventType): readonly string[] {
  const field = QUALIFIERS[type];
  if (!field) return [];
  const schema = (EVENTS[type] as z.ZodObject).shape[field] as z.ZodType | undefined;
  return schema instanceof z.ZodEnum ? (schema.options as string[]) : [];
}

/** What a selector means: the catalog types it takes, and a payload value they must hold (a qualifier). */
export type ParsedSelector = { types: EventType[]; field?: string; value?: string };

/** A selector read, or the sentence that says what is wrong with it. */
export function parseSelector(text: string): ParsedSelector | { error: string } {
  if (text.endsWith(".*")) {
    const prefix = text.slice(0, -1);
    const types = EVENT_TYPES.filter((t) => t.startsWith(prefix));
    return types.length ? { types } : { error: `'${text}' matches no event type of the catalog (docs/events.md)` };
  }
  const [name, value, ...rest] = text.split(":");
  if (!(EVENT_TYPES as readonly string[]).includes(name)) {
    const instead = SPELLED_OTHERWISE[text] ?? SPELLED_OTHERWISE[name];
    return { error: `'${name}' is not an event type of the catalog (docs/events.md)${instead ? `; use '${instead}'` : ""}` };
  }
  const type = name as EventType;
  if (value === undefined) return { types: [type] };
  const values = qualifierValues(type);
  if (!values.length) return { error: `'${type}' takes no ':' qualifier (only ${Object.keys(QUALIFIERS).join(", ")} do)` };
  if (rest.length || !values.includes(value))
    return { error: `'${text.slice(name.length + 1)}' is not a value of ${type}'s ${QUALIFIERS[type]}: one of ${values.join(", ")}` };
  return { types: [type], field: QUALIFIERS[type], value };
}

/**
 * One entry of a webhook's `events`: a catalog type (`session.approval_requested`), every type of an area (`budget.*`),
 * or a type with a qualifier (`contract.status_changed:failed`).
 */
export const EventSelector = z
  .string({ error: "must be a string (an event type of the catalog)" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_SELECTOR, { error: `must be at most ${MAX_SELECTOR} characters` })
  .superRefine((text, ctx) => {
    const parsed = parseSelector(text);
    if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
  });

const Events = z
  .array(EventSelector, { error: "must be a list of event types" })
  .min(1, { error: "must name at least one event type" })
  .max(MAX_WEBHOOK_EVENTS, { error: `must name at most ${MAX_WEBHOOK_EVENTS} event types` });

const WebhookUrl = z
  .string({ error: "must be a string (an http:// or https:// URL)" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_WEBHOOK_URL, { error: `must be at most ${MAX_WEBHOOK_URL} characters` })
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return ctx.addIssue({ code: "custom", message: "must be an absolute http:// or https:// URL" });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: `must use http or https, not ${url.protocol.slice(0, -1)}` });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not carry a user name or password; put a token in the path or query, as Slack and ntfy do" });
    }
  });

export const MIN_SECRET = 16;
export const MAX_SECRET = 256;
/** A given secret; refusals never repeat it (`received` is hidden), since error details travel and may be logged. */
const Secret = z.string({ error: "must be a string" }).superRefine((text, ctx) => {
  const problem =
    text.length < MIN_SECRET
      ? `must be at least ${MIN_SECRET} characters`
      : text.length > MAX_SECRET
        ? `must be at most ${MAX_SECRET} characters`
        : /^[\x21-\x7e]+$/.test(text)
          ? null
          : "must be printable ASCII without spaces";
  if (problem) ctx.addIssue({ code: "custom", message: problem, input: "(hidden)" });
});

export const CreateWebhookInput = z.strictObject({
  team: TeamParam,
  id: EntityId,
  url: WebhookUrl,
  events: Events,
  format: WebhookFormat.default("json"),
  /** Left out: the hub makes one (32 random bytes). Either way it is answered only by this call. */
  secret: Secret.optional(),
  enabled: Flag.default(true),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const WebhookRefInput = z.strictObject({ team: TeamParam, id: EntityId });
export type WebhookRefInput = z.infer<typeof WebhookRefInput>;

/** Changes the URL, the events or whether it delivers; the format and the secret stay (make a new webhook for those). */
export const UpdateWebhookInput = z
  .strictObject({ team: TeamParam, id: EntityId, url: WebhookUrl.optional(), events: Events.optional(), enabled: Flag.optional() })
  .superRefine((w, ctx) => {
    if (w.url === undefined && w.events === undefined && w.enabled === undefined) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "give at least one change: url, events or enabled" });
    }
  });
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed"] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` });
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliveriesInput = z.strictObject({ team: TeamParam, id: EntityId, status: DeliveryStatus.optional(), limit: Limit, cursor: Cursor });
export type DeliveriesInput = z.infer<typeof DeliveriesInput>;

// ── Responses ──

/**
 * One delivery: an event (or a test) for one webhook, with how its attempts went. `pending` waits for
 * `nextAttemptAt`; `sending` is under way on some hub; `delivered` got a 2xx; `failed` gave up (a refusal that
 * retrying cannot fix, or the last attempt).
 */
export const DeliveryView = z.object({
  id: z.number().int(),
  webhook: z.string(),
  kind: z.enum(["event", "test"]),
  eventId: z.number().int().nullable(),
  eventType: z.string(),
  status: DeliveryStatus,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt; null when none came (a timeout, a refused connection). */
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: IsoDate.nullable(),
  durationMs: z.number().nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  deliveredAt: IsoDate.nullable(),
});
export type DeliveryView = z.output<typeof DeliveryView>;

export const DeliveryList = z.object({ deliveries: z.array(DeliveryView), nextCursor: z.number().int().nullable() });
export type DeliveryList = z.output<typeof DeliveryList>;

/** A webhook as its list shows it: never its secret. */
export const WebhookView = z.object({
  team: z.string(),
  id: z.string(),
  url: z.string(),
  format: WebhookFormat,
  events: z.array(z.string()),
  enabled: z.boolean(),
  createdBy: z.string(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  /** Its deliveries in the log, by status. */
  deliveries: z.object({ pending: z.number().int(), sending: z.number().int(), delivered: z.number().int(), failed: z.number().int() }),
  last: DeliveryView.nullable(),
});
export type WebhookView = z.output<typeof WebhookView>;

/** The answer to creating one: the only time its secret is shown. */
export const WebhookCreated = WebhookView.extend({ secret: z.string() });
export type WebhookCreated = z.output<typeof WebhookCreated>;

export const WebhookDeleted = z.object({ deleted: z.string(), team: z.string() });
