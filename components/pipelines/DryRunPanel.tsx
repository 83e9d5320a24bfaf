"use client";

import { useId, useState } from "react";
import { FILTERS, scopeOf, type Trigger } from "@/lib/api/pipelines.ts";
import { sampleEvent } from "@/lib/pipeline-samples.ts";
import { useMatchingEvents, usePipelineActions } from "@/lib/queries/pipelines.ts";
import { asObject, getAt, triggerType } from "./rule-draft.ts";
import { DryRunResultView } from "./DryRunResult.tsx";

/** The trigger as typed, with only the filters that are text: what a sample can be made from. */
function triggerOf(rule: unknown): Trigger {
  const type = triggerType(rule);
  const typed = asObject(getAt(rule, "trigger"));
  const filters = FILTERS[scopeOf(type)].filter((k) => typeof typed[k] === "string" && typed[k] !== "").map((k) => [k, typed[k]]);
  return { type, ...Object.fromEntries(filters) } as Trigger;
}

/**
 * Tries one rule of the editor against a sample event (prefilled for its trigger) or a logged
 * one, and shows whether it fires, what the condition says and the action that would run, with
 * its templates rendered. Nothing is written.
 */
export function DryRunPanel({ team, rules }: { team: string; /** As sent to the hub (rule-draft toSend). */ rules: unknown[] }) {
  const [picked, setPicked] = useState(0);
  const index = Math.min(picked, rules.length - 1);
  const rule = rules[index];
  const trigger = triggerOf(rule);
  const [source, setSource] = useState<"sample" | "past">("sample");
  // null: follow the rule's trigger; text once the person edits the sample.
  const [edited, setEdited] = useState<string | null>(null);
  const [eventId, setEventId] = useState("");
  const [syntax, setSyntax] = useState<string | null>(null);
  const events = useMatchingEvents(team, trigger, source === "past");
  const { dryRun } = usePipelineActions(team);
  const sample = edited ?? JSON.stringify(sampleEvent(trigger), null, 2);
  const id = useId();
  const candidates = events.data?.events ?? [];

  const run = () => {
    if (source === "past") return dryRun.mutate({ rule, eventId: Number(eventId) });
    try {
      const event = JSON.parse(sample) as unknown;
      setSyntax(null);
      dryRun.mutate({ rule, event });
    } catch (e) {
      setSyntax(`not valid JSON: ${(e as Error).message}`);
    }
  };

  if (rules.length === 0) return <p className="empty">Add a rule to try it.</p>;
  return (
    <div className="stack" data-testid="dry-run">
      <div className="row">
        <label className="field">
          <span>rule</span>
          <select
            value={index}
            onChange={(e) => {
              setPicked(Number(e.target.value));
              setEdited(null);
              dryRun.reset();
            }}
          >
            {rules.map((r, i) => (
              <option key={i} value={i}>
                {`Rule ${i + 1}${typeof getAt(r, "name") === "string" ? `: ${String(getAt(r, "name"))}` : ""} (${triggerType(r)})`}
              </option>
            ))}
          </select>
        </label>
        <div className="row choice" role="radiogroup" aria-label="try it against">
          <span className="muted">try it against</span>
          <label>
            <input type="radio" name="dry-run-source" checked={source === "sample"} onChange={() => setSource("sample")} /> a sample event
          </label>
          <label>
            <input type="radio" name="dry-run-source" checked={source === "past"} onChange={() => setSource("past")} /> a past event
          </label>
        </div>
      </div>
      {source === "sample" ? (
        <div className="field" data-field="event">
          <div className="row">
            <label htmlFor={`${id}-sample`}>sample event for {trigger.type}</label>
            {edited !== null && (
              <button type="button" className="ghost" onClick={() => setEdited(null)}>
                reset to the sample
              </button>
            )}
          </div>
          <textarea
            id={`${id}-sample`}
            rows={12}
            value={sample}
            onChange={(e) => setEdited(e.target.value)}
            spellCheck={false}
            aria-invalid={syntax !== null}
          />
          {syntax && <span className="error">{syntax}</span>}
        </div>
      ) : (
        <label className="field" data-field="eventId">
          <span>past event the trigger fires on (its filters too), newest first</span>
          <select value={eventId} onChange={(e) => setEventId(e.target.value)} disabled={candidates.length === 0}>
            <option value="">{events.isLoading ? "loading…" : candidates.length ? "choose an event" : "no such events in this team yet"}</option>
            {candidates.map((e) => (
              <option key={e.id} value={e.id}>
                {`#${e.id} ${e.type} ${e.subject.replace(/^[a-z_]+:/, "")}${e.to ? ` → ${e.to}` : ""} by ${e.principal}`}
              </option>
            ))}
          </select>
          {events.data && !events.data.complete && (
            <span className="muted">
              the newest {candidates.length} of them ({events.data.scanned.toLocaleString()} events looked at)
            </span>
          )}
          {events.error && <span className="error">Could not load the events: {(events.error as Error).message}</span>}
        </label>
      )}
      <div>
        <button type="button" className="primary" onClick={run} disabled={dryRun.isPending || (source === "past" && eventId === "")}>
          Dry run
        </button>
      </div>
      {dryRun.error && (
        <p className="form-error" data-testid="dry-run-error">
          {dryRun.error.message}
        </p>
      )}
      {dryRun.data && <DryRunResultView result={dryRun.data} />}
    </div>
  );
}
