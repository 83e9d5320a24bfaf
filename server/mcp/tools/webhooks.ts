import { DELIVERY_STATUSES, WEBHOOK_FORMATS } from "../../../lib/api/webhooks.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { tool } from "../tool.ts";
import { CURSOR, LIMIT, TEAM } from "./common.ts";

const ID = "The webhook's id within the team: lowercase letters, digits, '.', '_' or '-' (e.g. 'ops-slack').";
const EVENTS =
  "Event types of the catalog (docs/events.md) to deliver: e.g. 'session.approval_requested', 'budget.*' (every type of an area), " +
  "'contract.status_changed:failed' (a qualifier: only failed contracts). Hub-wide ones ('account.*', the usage limits) are the operator's.";

/** A team's outgoing webhooks (docs/notifications.md): the operator and the team's leads manage them. */
export const webhookTools = [
  tool({
    name: "webhook_create",
    title: "Add a webhook",
    description:
      "Deliver chosen events of the team to a URL, after they are committed, with retries. The answer carries the webhook's secret (HMAC-SHA256 " +
      "signature key): the only time it is shown. Operator and team leads only.",
    endpoint: api.webhooks.create,
    describe: {
      team: TEAM,
      id: ID,
      url: "Where to POST: an http:// or https:// URL (a Slack incoming webhook, an ntfy topic, your own endpoint).",
      events: EVENTS,
      format: `One of ${WEBHOOK_FORMATS.join(", ")}: json (the event, signed), slack ({text}), ntfy (plain text with Title, Priority and Tags). Default json.`,
      secret: "The signing secret, 16–256 printable characters; leave out and the hub makes one.",
      enabled: "Whether it delivers from now on. Default true.",
    },
  }),
  tool({
    name: "webhook_list",
    title: "List webhooks",
    description:
      "The team's webhooks with their events, whether enabled, delivery counts and the newest delivery; never their secrets. Operator and team leads only.",
    endpoint: api.webhooks.list,
    describe: { team: TEAM },
  }),
  tool({
    name: "webhook_update",
    title: "Change a webhook",
    description: "Change a webhook's URL, its events, or switch it off and on (enabled again, it delivers events from then on). Operator and team leads only.",
    endpoint: api.webhooks.update,
    describe: { team: TEAM, id: ID, url: "A new http:// or https:// URL.", events: EVENTS, enabled: "false stops its deliveries; true resumes them." },
  }),
  tool({
    name: "webhook_delete",
    title: "Delete a webhook",
    description: "Remove a webhook with its delivery log; deliveries still waiting are dropped. Operator and team leads only.",
    endpoint: api.webhooks.delete,
    describe: { team: TEAM, id: ID },
  }),
  tool({
    name: "webhook_test",
    title: "Test a webhook",
    description:
      "Send the webhook a test notification now and answer how it went: delivered (the receiver's status) or failed (its status or why no answer came). Operator and team leads only.",
    endpoint: api.webhooks.test,
    describe: { team: TEAM, id: ID },
  }),
  tool({
    name: "webhook_deliveries",
    title: "A webhook's deliveries",
    description:
      "The webhook's delivery log, newest first: each event's status, attempts, the receiver's response code, the last error and the next attempt. Operator and team leads only.",
    endpoint: api.webhooks.deliveries,
    describe: { team: TEAM, id: ID, status: `Only deliveries in this status: one of ${DELIVERY_STATUSES.join(", ")}.`, limit: LIMIT, cursor: CURSOR },
  }),
];
