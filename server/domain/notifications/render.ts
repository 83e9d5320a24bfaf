/**
 * What a webhook sends for an event (docs/notifications.md#formats): a notice a person reads (title, text, urgency,
 * a link to the dashboard) and the request body of each format built from it. Rendered once, when a delivery is
 * enqueued; the signature is added at each attempt (./attempt.ts).
 */
import { z } from "zod";
import { EVENTS } from "../../../lib/api/events.ts";
import type { WebhookFormat } from "../../../lib/api/webhooks.ts";
import type { HubEvent } from "../../events/types.ts";

/** ntfy's priorities: 1 min … 3 default … 5 max. */
type Priority = 1 | 2 | 3 | 4 | 5;

export type Notice = { title: string; text: string; priority: Priority; tags: string[]; path: string | null };

/** A request as stored on the delivery row: the body and the format's own headers. */
export type Rendered = { body: string; contentType: string; headers: Record<string, string> };

// Long enough for any notice, short enough for ntfy (4,096 bytes before it turns a message into an attachment) and Slack.
const MAX_TEXT = 2000;
const MAX_TITLE = 200;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const when = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");
const session = (name: string) => `/sessions/${encodeURIComponent(name)}`;

/** Up to eight plain fields of a payload, `key: value`: the text of an event without a notice of its own. */
function fields(payload: object): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(payload)) {
    if (parts.length === 8) break;
    if (typeof v === "string") parts.push(`${k}: ${clip(v, 200)}`);
    else if (typeof v === "number" || typeof v === "boolean") parts.push(`${k}: ${v}`);
    else if (v instanceof Date) parts.push(`${k}: ${when(v)}`);
  }
  return parts.join(", ");
}

function noticeOf(e: HubEvent): Notice {
  switch (e.type) {
    case "session.approval_requested": {
      const p = e.payload;
      return {
        title: `Approval waiting: ${p.name}`,
        text: `Session ${p.name} asks to use ${p.toolName}: ${p.reason}. Denied at ${when(p.expiresAt)} unless someone decides.`,
        priority: 4,
        tags: ["bell"],
        path: session(p.name),
      };
    }
    case "session.approval_decided":
      return {
        title: `Approval ${e.payload.status}: ${e.payload.name}`,
        text: `${e.payload.toolName}, by ${e.payload.decidedBy}`,
        priority: 2,
        tags: [],
        path: session(e.payload.name),
      };
    case "contract.status_changed": {
      const p = e.payload;
      const failed = p.to === "failed";
      return {
        title: `Contract ${p.id}: ${p.from} → ${p.to}`,
        text: `Assigned to ${p.assignee}.${p.reason ? ` Reason: ${p.reason}` : ""}`,
        priority: failed ? 4 : 3,
        tags: failed ? ["x"] : p.to === "completed" ? ["white_check_mark"] : [],
        path: `/canvas?contract=${encodeURIComponent(p.id)}`,
      };
    }
    case "session.exited": {
      const p = e.payload;
      const bad = p.status === "failed" || p.status === "killed";
      return {
        title: `Session ${p.name} ${p.status}`,
        text: `${p.reason}${p.problem ? `: ${p.problem}` : ""}`,
        priority: bad ? 4 : 3,
        tags: bad ? ["rotating_light"] : [],
        path: session(p.name),
      };
    }
    case "session.problem": {
      const p = e.payload;
      return p.problem
        ? { title: `Session ${p.name} needs attention`, text: p.problem, priority: 4, tags: ["warning"], path: session(p.name) }
        : {
            title: `Session ${p.name}: problem resolved`,
            text: `It was: ${p.previous ?? "—"}`,
            priority: 2,
            tags: ["white_check_mark"],
            path: session(p.name),
          };
    }
    case "session.turn_completed": {
      const p = e.payload;
      return {
        title: `Turn ${p.status}: ${p.name}`,
        text: p.error ?? `${p.turns} model turn(s), $${p.costUsd.toFixed(2)}, ${Math.round(p.durationMs / 1000)} s`,
        priority: p.status === "completed" ? 2 : 4,
        tags: p.status === "completed" ? [] : ["warning"],
        path: session(p.name),
      };
    }
    case "budget.warning":
    case "budget.exhausted":
      return {
        title: e.type === "budget.warning" ? "Budget warning" : "Budget used up",
        text: e.payload.text,
        priority: e.type === "budget.warning" ? 3 : 4,
        tags: ["moneybag"],
        path: "/budgets",
      };
    default:
      return { title: `${e.type} ${e.subject}`, text: fields(e.payload) || e.subject, priority: 3, tags: [], path: null };
  }
}

/** The notice of an event, or of a test (event null), with the team it is about in its title. */
export function notice(team: string, e: HubEvent | null, webhook: string): Notice {
  const n: Notice = e
    ? noticeOf(e)
    : {
        title: "Test notification",
        text: `Webhook '${webhook}' of team '${team}' works: Team Hub sent this test.`,
        priority: 3,
        tags: ["wave"],
        path: "/settings",
      };
  // A hub-wide event (a usage limit of an account) belongs to no team.
  const about = e ? (e.teamId ?? "hub") : team;
  return { ...n, title: clip(`[${about}] ${n.title}`, MAX_TITLE), text: clip(n.text, MAX_TEXT) };
}

/** The dashboard page of a notice, with its team chosen (`?team=`); null without a dashboard address. */
function linkOf(n: Notice, team: string, dashboardUrl: string | undefined): string | null {
  if (!n.path || !dashboardUrl) return null;
  const url = new URL(n.path, dashboardUrl);
  url.searchParams.set("team", team);
  return url.toString();
}

/** The event as the wire carries it (dates as ISO text): its own type's schema, not the union of every type. */
function wire(e: HubEvent): unknown {
  const schema: z.ZodType = EVENTS[e.type];
  return { ...e, at: e.at.toISOString(), payload: z.encode(schema, e.payload) };
}

/** Slack's mrkdwn treats &, < and > as markup. */
const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A header value as ntfy reads it: no line breaks, and RFC 2047 (`=?UTF-8?B?…?=`) when it is not plain ASCII, since
 * HTTP headers carry Latin-1 at most and ntfy decodes encoded words (docs.ntfy.sh/publish).
 */
export function headerValue(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, " ");
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, "utf8").toString("base64")}?=`;
}

export type RenderInput = { format: WebhookFormat; webhook: string; team: string; event: HubEvent | null; dashboardUrl?: string };

export function render({ format, webhook, team, event, dashboardUrl }: RenderInput): Rendered {
  const n = notice(team, event, webhook);
  const link = linkOf(n, team, dashboardUrl);
  switch (format) {
    case "json":
      return {
        body: JSON.stringify({
          webhook,
          team,
          test: event === null,
          title: n.title,
          text: n.text,
          link,
          event: event ? wire(event) : null,
        }),
        contentType: "application/json",
        headers: {},
      };
    case "slack":
      return {
        body: JSON.stringify({ text: `*${slackEscape(n.title)}*\n${slackEscape(n.text)}${link ? `\n<${link}|Open in Team Hub>` : ""}` }),
        contentType: "application/json",
        headers: {},
      };
    case "ntfy":
      return {
        body: n.text,
        contentType: "text/plain; charset=utf-8",
        headers: {
          Title: headerValue(n.title),
          Priority: String(n.priority),
          ...(n.tags.length ? { Tags: n.tags.join(",") } : {}),
          ...(link ? { Click: link } : {}),
        },
      };
  }
}
