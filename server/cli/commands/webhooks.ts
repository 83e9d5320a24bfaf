/** webhook-add, -list, -update, -remove, -test and -deliveries (docs/notifications.md): the operator and the team's leads. */
import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import type { DeliveryView, WebhookView } from "../../../lib/api/webhooks.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { badOption, collect, intOption } from "../options.ts";

const state = (w: WebhookView) => (w.enabled ? "enabled" : "disabled");
const summary = (w: WebhookView) => `${w.id} (${w.format}, ${state(w)}) → ${w.url}\n  events: ${w.events.join(", ")}`;
const outcome = (d: DeliveryView) =>
  d.status === "delivered"
    ? `delivered (HTTP ${d.responseCode}) in ${d.durationMs ?? 0} ms`
    : `${d.status}${d.responseCode !== null ? ` (HTTP ${d.responseCode})` : ""}: ${d.lastError ?? ""}`;

/** --enable and --disable, at most one of them; neither leaves it as it is. */
function enabledOf(opts: { enable?: boolean; disable?: boolean }): boolean | undefined {
  if (opts.enable && opts.disable) throw badOption("--enable", "give either --enable or --disable, not both");
  return opts.enable ? true : opts.disable ? false : undefined;
}

export function register(program: Command) {
  program
    .command("webhook-add <id> <url>")
    .description("add a webhook to --team: the chosen events are POSTed to <url> (http:// or https://) after they are committed; its secret is printed once")
    .requiredOption(
      "--events <types>",
      "event types (comma-separated or repeated): e.g. session.approval_requested, contract.status_changed:failed, budget.*",
      collect,
    )
    .option("--format <format>", "json (default: the event, signed), slack or ntfy")
    .option("--secret <secret>", "the signing secret (default: the hub makes one)")
    .option("--disabled", "add it switched off")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ events: string[]; format?: string; secret?: string; disabled?: boolean }>) =>
          hub.webhooks.create(
            asTyped(api.webhooks.create, {
              id: args[0],
              url: args[1],
              events: opts.events,
              format: opts.format,
              secret: opts.secret,
              enabled: !opts.disabled,
            }),
          ),
        (w) => `added webhook ${summary(w)}\n  secret: ${w.secret}\n  (shown only now: the receiver checks X-TeamHub-Signature with it, docs/notifications.md)`,
      ),
    );
  program
    .command("webhook-list")
    .description("the webhooks of --team with their delivery counts (never their secrets)")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.webhooks.list(),
        (list) =>
          table(
            list.map((w) => ({
              id: w.id,
              format: w.format,
              state: state(w),
              url: w.url,
              events: w.events.join(","),
              delivered: w.deliveries.delivered,
              failed: w.deliveries.failed,
              waiting: w.deliveries.pending + w.deliveries.sending,
              last: w.last ? `${w.last.status} ${w.last.updatedAt.toISOString()}` : null,
            })),
            ["id", "format", "state", "url", "events", "delivered", "failed", "waiting", "last"],
          ),
      ),
    );
  program
    .command("webhook-update <id>")
    .description("change a webhook's URL or events, or switch it off (--disable) and on (--enable)")
    // Not --url: that global option names the hub.
    .option("--to <url>", "a new http:// or https:// URL to send to")
    .option("--events <types>", "the new event types (comma-separated or repeated)", collect)
    .option("--enable", "deliver again (events from now on)")
    .option("--disable", "stop delivering")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ to?: string; events?: string[]; enable?: boolean; disable?: boolean }>) =>
          hub.webhooks.update(asTyped(api.webhooks.update, { id: args[0], url: opts.to, events: opts.events, enabled: enabledOf(opts) })),
        (w) => `updated webhook ${summary(w)}`,
      ),
    );
  program
    .command("webhook-remove <id>")
    .description("delete a webhook and its delivery log (deliveries still waiting are dropped)")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.webhooks.delete({ id: args[0] }),
        (r) => `deleted webhook ${r.deleted}`,
      ),
    );
  program
    .command("webhook-test <id>")
    .description("send the webhook a test notification now and say how it went: delivered, or failed and why")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.webhooks.test({ id: args[0] }),
        (d) => `test of ${d.webhook}: ${outcome(d)}`,
      ),
    );
  program
    .command("webhook-deliveries <id>")
    .description("a webhook's delivery log, newest first: status, attempts, the receiver's answer, the next attempt")
    .option("--status <status>", "only pending, sending, delivered or failed")
    .option("--limit <n>", "entries (≤ 500, default 100)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ status?: string; limit?: string }>) =>
          hub.webhooks.deliveries(asTyped(api.webhooks.deliveries, { id: args[0], status: opts.status, limit: intOption("--limit", opts.limit) })),
        (r) =>
          table(
            r.deliveries.map((d) => ({
              id: d.id,
              event: d.eventId === null ? d.eventType : `${d.eventType} #${d.eventId}`,
              status: d.status,
              attempts: `${d.attempts}/${d.maxAttempts}`,
              code: d.responseCode,
              error: d.lastError,
              next: d.nextAttemptAt?.toISOString() ?? null,
              at: d.updatedAt.toISOString(),
            })),
            ["id", "event", "status", "attempts", "code", "error", "next", "at"],
          ),
      ),
    );
}
