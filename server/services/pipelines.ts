/** Reactive pipelines (docs/domain.md#pipelines) and a team's outgoing webhooks (docs/notifications.md). */
import type { Operations } from "../operations.ts";
import {
  createPipeline,
  deletePipeline,
  dryRun,
  getPipeline,
  listPipelines,
  pausePipeline,
  resumePipeline,
  updatePipeline,
  validatePipeline,
} from "../domain/pipelines/pipelines.service.ts";
import { matchingEvents } from "../domain/pipelines/matching-events.ts";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "../domain/notifications/webhooks.service.ts";
import { DEFAULT_WEBHOOK_CONFIG } from "../domain/notifications/config.ts";
import type { ServiceContext } from "./context.ts";

export const pipelineServices = ({ deps }: ServiceContext) =>
  ({
    create: (a, i) => createPipeline(deps, a, i),
    list: (_, i) => listPipelines(deps, i),
    get: (_, i) => getPipeline(deps, i),
    update: (a, i) => updatePipeline(deps, a, i),
    pause: (a, i) => pausePipeline(deps, a, i),
    resume: (a, i) => resumePipeline(deps, a, i),
    delete: (a, i) => deletePipeline(deps, a, i),
    dryRun: (a, i) => dryRun(deps, a, i),
    matchingEvents: (a, i) => matchingEvents(deps, a, i),
    validate: (_, i) => validatePipeline(deps, i),
  }) satisfies Operations<"pipelines">;

export const webhookServices = ({ deps, info }: ServiceContext) =>
  ({
    create: (a, i) => createWebhook(deps, a, i),
    list: (a, i) => listWebhooks(deps, a, i),
    update: (a, i) => updateWebhook(deps, a, i),
    delete: (a, i) => deleteWebhook(deps, a, i),
    test: (a, i) => testWebhook(deps, a, i, info.webhooks ?? DEFAULT_WEBHOOK_CONFIG),
    deliveries: (a, i) => listDeliveries(deps, a, i),
  }) satisfies Operations<"webhooks">;
