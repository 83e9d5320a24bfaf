/** A team's outgoing webhooks (docs/notifications.md): the operator and the team's leads manage them. */
import { DELIVERY_STATUSES, WEBHOOK_FORMATS } from "../../lib/api/webhooks.ts";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "../domain/notifications/webhooks.service.ts";
import { DEFAULT_WEBHOOK_CONFIG } from "../domain/notifications/config.ts";
import { area } from "./define.ts";
import { CURSOR, LIMIT, TEAM } from "./fields.ts";

const ID = "The webhook's id within the team: lowercase letters, digits, '.', '_' or '-' (e.g. 'ops-slack').";
const EVENTS =
  "Event types of the catalog (docs/events.md) to deliver: e.g. 'session.approval_requested', 'budget.*' (every type of an area), " +
  "'contract.status_changed:failed' (a qualifier: only failed contracts). Hub-wide ones ('account.*', the usage limits) are the operator's.";

export const webhooks = area("webhooks", {
  create: {
    may: { "hub-wide events": "webhook.hub_events", otherwise: "webhook.create" },
    serve: ({ deps }, a, i) => createWebhook(deps, a, i),
    mcp: {
      name: "webhook_create",
      title: "Add a webhook",
      description:
        "Deliver chosen events of the team to a URL, after they are committed, with retries. The answer carries the webhook's secret (HMAC-SHA256 " +
        "signature key): the only time it is shown.",
      describe: {
        team: TEAM,
        id: ID,
        url: "Where to POST: an http:// or https:// URL (a Slack incoming webhook, an ntfy topic, your own endpoint).",
        events: EVENTS,
        format: `One of ${WEBHOOK_FORMATS.join(", ")}: json (the event, signed), slack ({text}), ntfy (plain text with Title, Priority and Tags). Default json.`,
        secret: "The signing secret, 16–256 printable characters; leave out and the hub makes one.",
        enabled: "Whether it delivers from now on. Default true.",
      },
    },
  },
  list: {
    may: "webhook.list",
    serve: ({ deps }, a, i) => listWebhooks(deps, a, i),
    mcp: {
      name: "webhook_list",
      title: "List webhooks",
      description: "The team's webhooks with their events, whether enabled, delivery counts and the newest delivery; never their secrets.",
      describe: { team: TEAM },
    },
  },
  update: {
    may: { "hub-wide events": "webhook.hub_events", otherwise: "webhook.update" },
    serve: ({ deps }, a, i) => updateWebhook(deps, a, i),
    mcp: {
      name: "webhook_update",
      title: "Change a webhook",
      description: "Change a webhook's URL, its events, or switch it off and on (enabled again, it delivers events from then on).",
      describe: { team: TEAM, id: ID, url: "A new http:// or https:// URL.", events: EVENTS, enabled: "false stops its deliveries; true resumes them." },
    },
  },
  delete: {
    may: "webhook.delete",
    serve: ({ deps }, a, i) => deleteWebhook(deps, a, i),
    mcp: {
      name: "webhook_delete",
      title: "Delete a webhook",
      description: "Remove a webhook with its delivery log; deliveries still waiting are dropped.",
      describe: { team: TEAM, id: ID },
    },
  },
  test: {
    may: "webhook.test",
    serve: ({ deps, info }, a, i) => testWebhook(deps, a, i, info.webhooks ?? DEFAULT_WEBHOOK_CONFIG),
    mcp: {
      name: "webhook_test",
      title: "Test a webhook",
      description:
        "Send the webhook a test notification now and answer how it went: delivered (the receiver's status) or failed (its status or why no answer came).",
      describe: { team: TEAM, id: ID },
    },
  },
  deliveries: {
    may: "webhook.deliveries",
    serve: ({ deps }, a, i) => listDeliveries(deps, a, i),
    mcp: {
      name: "webhook_deliveries",
      title: "A webhook's deliveries",
      description:
        "The webhook's delivery log, newest first: each event's status, attempts, the receiver's response code, the last error and the next attempt.",
      describe: { team: TEAM, id: ID, status: `Only deliveries in this status: one of ${DELIVERY_STATUSES.join(", ")}.`, limit: LIMIT, cursor: CURSOR },
    },
  },
});
