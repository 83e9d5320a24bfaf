import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { TeamRefInput } from "../teams.ts";
import {
  CreateWebhookInput,
  DeliveriesInput,
  DeliveryList,
  DeliveryView,
  UpdateWebhookInput,
  WebhookCreated,
  WebhookDeleted,
  WebhookRefInput,
  WebhookView,
} from "../webhooks.ts";

/** A team's outgoing webhooks (docs/notifications.md); the operator and the team's leads only. */
export const webhooks = {
  list: endpoint({ method: "GET", path: "/webhooks", input: TeamRefInput, output: z.array(WebhookView) }),
  /** The answer carries the secret: the only time it is shown. */
  create: endpoint({ method: "POST", path: "/webhooks", input: CreateWebhookInput, output: WebhookCreated, status: 201 }),
  update: endpoint({ method: "PATCH", path: "/webhooks/:id", input: UpdateWebhookInput, output: WebhookView }),
  delete: endpoint({ method: "DELETE", path: "/webhooks/:id", input: WebhookRefInput, output: WebhookDeleted }),
  /** Sends a test notification now and answers its delivery, delivered or failed (waits at most the attempt's time limit). */
  // Sends a request to the receiver now, answered once the attempt ended (at most its time limit).
  test: endpoint({ method: "POST", path: "/webhooks/:id/test", input: WebhookRefInput, output: DeliveryView }),
  deliveries: endpoint({ method: "GET", path: "/webhooks/:id/deliveries", input: DeliveriesInput, output: DeliveryList }),
};
