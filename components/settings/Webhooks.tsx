"use client";

import { useState } from "react";
import { WEBHOOK_FORMATS, type DeliveryView, type WebhookFormat, type WebhookView } from "@/lib/api/webhooks.ts";
import { issuesOf } from "@/lib/field-issues.ts";
import { useCreateWebhook, useDeleteWebhook, useDeliveries, useTestWebhook, useUpdateWebhook, useWebhooks } from "@/lib/queries/webhooks.ts";
import { ListState } from "../ui/Card.tsx";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { CopyButton } from "../ui/CopyButton.tsx";
import { When } from "../ui/When.tsx";

/** What people usually want to hear about (docs/notifications.md#events), one click each. */
const SUGGESTED: Array<[string, string]> = [
  ["session.approval_requested", "approval waiting"],
  ["session.limited", "usage limit hit"],
  ["session.exited:failed", "session failed"],
  ["session.problem", "session problem"],
  ["contract.status_changed:failed", "contract failed"],
  ["budget.warning", "budget warning"],
  ["budget.exhausted", "budget used up"],
];

// The badge colours the rest of the dashboard uses: waiting, under way, done, gone wrong.
const STATUS_CLASS: Record<DeliveryView["status"], string> = { pending: "pending", sending: "running", delivered: "completed", failed: "failed" };

function DeliveryBadge({ d }: { d: DeliveryView }) {
  return (
    <span className={`badge ${STATUS_CLASS[d.status]}`} title={d.lastError ?? undefined}>
      {d.status}
    </span>
  );
}

const outcome = (d: DeliveryView) =>
  d.status === "delivered"
    ? `delivered (HTTP ${d.responseCode})`
    : `${d.status}${d.responseCode !== null ? ` (HTTP ${d.responseCode})` : ""}: ${d.lastError ?? ""}`;

const splitEvents = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);

function AddForm({ team }: { team: string }) {
  const [id, setId] = useState("");
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<WebhookFormat>("json");
  const [events, setEvents] = useState("session.approval_requested, contract.status_changed:failed");
  const [secret, setSecret] = useState("");
  const create = useCreateWebhook(team);
  const issues = issuesOf(create.error);
  // An entry of the events list is named `events[2]`: its message shows under the events field.
  const at = (field: string) => issues.filter((i) => i.field === field || i.field.startsWith(`${field}[`));
  const note = (field: string, hint: string) => {
    const found = at(field);
    return found.length ? <span className="error">{found.map((i) => i.message).join("; ")}</span> : <span className="hint">{hint}</span>;
  };
  const shownInline = ["id", "url", "format", "events", "secret"].some((f) => at(f).length > 0);
  const add = (selector: string) => {
    const list = splitEvents(events);
    if (!list.includes(selector)) setEvents([...list, selector].join(", "));
  };
  return (
    <form
      className="stack tight"
      aria-label="add a webhook"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ id: id.trim(), url: url.trim(), format, events: splitEvents(events), ...(secret ? { secret } : {}) });
      }}
    >
      <div className="options-grid">
        <label className="field">
          <span>Name</span>
          <input
            value={id}
            onChange={(e) => setId(e.target.value)}
            aria-label="webhook name"
            placeholder="ops-slack"
            aria-invalid={at("id").length > 0 || undefined}
          />
          {note("id", "lowercase letters, digits, '.', '_' or '-'")}
        </label>
        <label className="field">
          <span>URL</span>
          <input
            className="mono"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-label="webhook URL"
            placeholder="https://hooks.slack.com/services/…"
            aria-invalid={at("url").length > 0 || undefined}
          />
          {note("url", "http:// or https://; a Slack incoming webhook, an ntfy topic, your own endpoint")}
        </label>
        <label className="field">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)} aria-label="webhook format">
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
          {note("format", "json: the event, signed; slack: {text}; ntfy: text with Title, Priority, Tags")}
        </label>
        <label className="field">
          <span>Secret (optional)</span>
          <input
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            aria-label="webhook secret"
            type="password"
            autoComplete="off"
            placeholder="made by the hub"
          />
          {note("secret", "signs every request (X-TeamHub-Signature); empty: the hub makes one")}
        </label>
      </div>
      <label className="field">
        <span>Events</span>
        <input
          className="mono"
          value={events}
          onChange={(e) => setEvents(e.target.value)}
          aria-label="webhook events"
          aria-invalid={at("events").length > 0 || undefined}
        />
        {note("events", "event types of the catalog, comma-separated: a type, area.* or type:value (docs/notifications.md#events)")}
      </label>
      <div className="row" aria-label="suggested events">
        {SUGGESTED.map(([selector, label]) => (
          <button key={selector} type="button" className="ghost" onClick={() => add(selector)} title={selector}>
            + {label}
          </button>
        ))}
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending || id.trim() === "" || url.trim() === ""}>
          Add webhook
        </button>
        {create.error && !shownInline && (
          <span className="form-error" role="alert">
            {create.error.message}
          </span>
        )}
      </div>
      {create.data && (
        <div className="issued" role="status" data-testid="webhook-secret">
          <p>
            Webhook <strong>{create.data.id}</strong> added. Its secret is shown only now: the receiver checks each request&apos;s signature with it.
          </p>
          <div className="row">
            <code className="secret">{create.data.secret}</code>
            <CopyButton text={create.data.secret} label={`secret of ${create.data.id}`} />
            <button
              type="button"
              className="ghost"
              onClick={() => {
                create.reset();
                setId("");
                setUrl("");
                setSecret("");
              }}
            >
              Done
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

function Deliveries({ team, id }: { team: string; id: string }) {
  const list = useDeliveries(team, id);
  const rows = list.data?.deliveries ?? [];
  return (
    <div className="stack tight" data-testid={`deliveries-${id}`}>
      <ListState loading={list.isLoading} error={list.error} empty={rows.length === 0} hint="No deliveries yet." />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Answer</th>
                <th>Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid={`delivery-${d.id}`}>
                  <td>
                    <When at={d.updatedAt} />
                  </td>
                  <td className="mono">{d.kind === "test" ? "test" : `${d.eventType} #${d.eventId}`}</td>
                  <td>
                    <DeliveryBadge d={d} />
                  </td>
                  <td className="num">
                    {d.attempts}/{d.maxAttempts}
                  </td>
                  <td>{d.status === "delivered" ? `HTTP ${d.responseCode}` : (d.lastError ?? "—")}</td>
                  <td>{d.nextAttemptAt ? <When at={d.nextAttemptAt} /> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Row({ team, w }: { team: string; w: WebhookView }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateWebhook(team);
  const remove = useDeleteWebhook(team);
  const test = useTestWebhook(team);
  const error = update.error ?? remove.error ?? test.error;
  return (
    <>
      <tr data-testid={`webhook-${w.id}`}>
        <td className="mono">{w.id}</td>
        <td>{w.format}</td>
        <td className="mono clip" style={{ maxWidth: "18rem" }} title={w.url}>
          {w.url}
        </td>
        <td className="mono">{w.events.join(", ")}</td>
        <td>
          <span className={`badge ${w.enabled ? "active" : "paused"}`}>{w.enabled ? "enabled" : "disabled"}</span>
        </td>
        <td className="num" title="delivered / failed / waiting">
          {w.deliveries.delivered} / {w.deliveries.failed} / {w.deliveries.pending + w.deliveries.sending}
        </td>
        <td>{w.last ? <DeliveryBadge d={w.last} /> : "—"}</td>
        <td>
          <div className="row">
            <button type="button" onClick={() => test.mutate(w.id)} disabled={test.isPending} aria-label={`test ${w.id}`}>
              {test.isPending ? "Testing…" : "Test"}
            </button>
            <button
              type="button"
              onClick={() => update.mutate({ id: w.id, enabled: !w.enabled })}
              disabled={update.isPending}
              aria-label={`${w.enabled ? "disable" : "enable"} ${w.id}`}
            >
              {w.enabled ? "Disable" : "Enable"}
            </button>
            <button type="button" className="ghost" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={`deliveries of ${w.id}`}>
              Deliveries
            </button>
            <ConfirmButton
              label="Delete"
              danger
              question={
                <>
                  Delete the webhook <strong>{w.id}</strong>? Its delivery log goes with it, and deliveries still waiting are dropped.
                </>
              }
              onConfirm={() => remove.mutate(w.id)}
            />
          </div>
          {test.data && (
            <p className={test.data.status === "delivered" ? "muted" : "error"} role="status" data-testid={`test-result-${w.id}`}>
              Test {outcome(test.data)}
            </p>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error.message}
            </p>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={8}>
            <Deliveries team={team} id={w.id} />
          </td>
        </tr>
      )}
    </>
  );
}

/** A team's outgoing webhooks (docs/notifications.md): the operator and the team's leads manage them. */
export function Webhooks({ team }: { team: string }) {
  const list = useWebhooks(team);
  const rows = list.data ?? [];
  return (
    <div className="stack">
      <p className="muted">
        Chosen events of team {team} are sent to a URL after they happen, signed with the webhook&apos;s secret, retried when the receiver fails.
      </p>
      <AddForm team={team} />
      <ListState loading={list.isLoading} error={list.error} empty={rows.length === 0} hint="No webhooks yet." />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table data-testid="webhooks">
            <thead>
              <tr>
                <th>Name</th>
                <th>Format</th>
                <th>URL</th>
                <th>Events</th>
                <th>State</th>
                <th className="num">Delivered / failed / waiting</th>
                <th>Last</th>
                <th aria-label="actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <Row key={w.id} team={team} w={w} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
