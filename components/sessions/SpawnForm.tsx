"use client";

import Link from "next/link";
import { useState, type FormEvent, type ReactNode } from "react";
import { PRESETS } from "@/lib/api/sessions.ts";
import { ISOLATIONS } from "@/lib/api/worktrees.ts";
import { issuesAt, issuesOf, type FieldIssue } from "@/lib/field-issues.ts";
import { perMTok } from "@/lib/format.ts";
import type { RuntimeView } from "@/lib/api/runtimes.ts";
import { useRuntimes, useSpawn } from "@/lib/queries/sessions.ts";
import { GateFix, gateRefusal } from "../fixes/GateFix.tsx";
import { submitsOnCtrlEnter } from "@/lib/ctrl-enter.ts";

const PRESET_HINT: Record<string, string> = {
  "read-only": "reads and searches only",
  review: "reads and searches only",
  edit: "also edits files; asks you before anything else",
  full: "allows every tool call",
  plan: "the CLI's plan mode",
};

const EMPTY = {
  name: "",
  prompt: "",
  runtime: "",
  model: "",
  agent: "",
  preset: "edit",
  workDir: "",
  isolation: "",
  base: "",
  maxCost: "",
  maxTurns: "",
  timeout: "",
  member: false,
  role: "",
};

const ISOLATION_HINT: Record<string, string> = {
  "": "the team's choice (Settings → team options)",
  worktree: "a git work tree and branch of its own, so parallel sessions never write over each other",
  shared: "works in the work directory itself, beside whatever else runs there",
};
type Draft = typeof EMPTY;

/** The request body: only what was filled in, so the hub's defaults apply to the rest. */
function bodyOf(d: Draft) {
  const number = (v: string) => (v.trim() === "" ? undefined : Number(v));
  const timeout = number(d.timeout);
  const safety = { maxCostUsd: number(d.maxCost), maxTurns: number(d.maxTurns), timeoutMs: timeout === undefined ? undefined : timeout * 1000 };
  const text = (v: string) => v.trim() || undefined;
  return {
    name: d.name.trim(),
    prompt: d.prompt.trim() ? d.prompt : undefined,
    runtime: text(d.runtime),
    model: text(d.model),
    agent: text(d.agent),
    preset: PRESETS.find((p) => p === d.preset),
    workDir: text(d.workDir),
    isolation: ISOLATIONS.find((i) => i === d.isolation),
    base: d.isolation === "worktree" ? text(d.base) : undefined,
    ...(Object.values(safety).some((v) => v !== undefined) ? { safety } : {}),
  };
}

const price = (m: NonNullable<RuntimeView["models"]>[number]) => `${perMTok(m.inputUsdPerMTok)} / ${perMTok(m.outputUsdPerMTok)} per M tokens in / out`;

/** What the model field offers: the runtime's own models when it lists them, else any alias or id the agent knows. */
function ModelChoice({
  runtime,
  value,
  onChange,
  invalid,
}: {
  runtime: RuntimeView | undefined;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  invalid?: true;
}) {
  if (!runtime?.models) return <input value={value} onChange={onChange} aria-invalid={invalid} list="model-aliases" />;
  return (
    <select value={value} onChange={onChange} aria-invalid={invalid}>
      <option value="">default ({runtime.defaultModel ?? "the agent's"})</option>
      {runtime.models.map((m) => (
        <option key={m.name} value={m.name} title={price(m)}>
          {m.name}
        </option>
      ))}
    </select>
  );
}

function modelHint(runtime: RuntimeView | undefined, model: string): string {
  if (!runtime?.models) return "alias or id; empty: the CLI's default";
  const chosen = runtime.models.find((m) => m.name === (model || runtime.defaultModel));
  return chosen ? `${chosen.name}: ${price(chosen)}` : `one of ${runtime.name}'s models`;
}

function Field({ label, field, issues, hint, children }: { label: string; field: string; issues: FieldIssue[]; hint?: string; children: ReactNode }) {
  const mine = issuesAt(issues, field);
  return (
    <label className="field" data-field={field}>
      <span>{label}</span>
      {children}
      {mine.map((i) => (
        <span key={i.message} className="error">
          {i.message}
        </span>
      ))}
      {mine.length === 0 && hint && <span className="hint">{hint}</span>}
    </label>
  );
}

/**
 * Starts a session, or a team member (roster, worker guide, own identity) when "as team member" is ticked;
 * `member` ticks it from the start (the empty state's "Start a team member").
 */
export function SpawnForm({ team, member = false }: { team: string; member?: boolean }) {
  const spawn = useSpawn(team);
  const runtimes = useRuntimes().data ?? [];
  const [d, setD] = useState<Draft>({ ...EMPTY, member });
  // The first listed is the hub's default (claude).
  const runtime = runtimes.find((r) => r.name === d.runtime) ?? runtimes[0];
  const issues = issuesOf(spawn.error);
  const set =
    <K extends keyof Draft>(k: K) =>
    (e: { target: { value: string; checked?: boolean } }) =>
      setD((old) => ({ ...old, [k]: typeof old[k] === "boolean" ? Boolean(e.target.checked) : e.target.value }));
  const invalid = (field: string) => (issuesAt(issues, field).length > 0 ? true : undefined);
  // A model of one runtime means nothing to another.
  const setRuntime = (e: { target: { value: string } }) => setD((old) => ({ ...old, runtime: e.target.value, model: "" }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    spawn.mutate({ body: bodyOf(d), role: d.member ? d.role.trim() : undefined }, { onSuccess: () => setD((old) => ({ ...old, name: "", prompt: "" })) });
  };

  return (
    <form onSubmit={submit} aria-label="start a session" noValidate>
      <Field label="Name" field="name" issues={issues}>
        <input value={d.name} onChange={set("name")} aria-invalid={invalid("name")} required autoComplete="off" />
      </Field>
      <Field label="First message (optional)" field="prompt" issues={issues} hint="Without one the session starts idle and waits for a message.">
        <textarea rows={3} value={d.prompt} onChange={set("prompt")} aria-invalid={invalid("prompt")} onKeyDown={submitsOnCtrlEnter} />
      </Field>
      <div className="split">
        <Field
          label="Runtime"
          field="runtime"
          issues={issues}
          hint={runtime?.protocol === "acp" ? "an agent driven through the Agent Client Protocol" : "Claude Code"}
        >
          <select value={runtime?.name ?? ""} onChange={setRuntime} aria-invalid={invalid("runtime")}>
            {runtimes.map((r) => (
              <option key={r.name} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Model" field="model" issues={issues} hint={modelHint(runtime, d.model)}>
          <ModelChoice runtime={runtime} value={d.model} onChange={set("model")} invalid={invalid("model")} />
        </Field>
      </div>
      <div className="split">
        <Field label="Agent (optional)" field="agent" issues={issues} hint={runtime?.cannot.agent ?? "a Claude Code agent to run as"}>
          <input value={d.agent} onChange={set("agent")} aria-invalid={invalid("agent")} autoComplete="off" />
        </Field>
        <Field label="Preset" field="preset" issues={issues} hint={PRESET_HINT[d.preset]}>
          <select value={d.preset} onChange={set("preset")} aria-invalid={invalid("preset")}>
            {PRESETS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </Field>
      </div>
      <datalist id="model-aliases">
        <option value="sonnet" />
        <option value="opus" />
        <option value="haiku" />
      </datalist>
      <Field label="Work directory" field="workDir" issues={issues} hint="an absolute path; empty: the hub's work directory">
        <input value={d.workDir} onChange={set("workDir")} aria-invalid={invalid("workDir")} className="mono" />
      </Field>
      <div className="split">
        <Field label="Isolation" field="isolation" issues={issues} hint={ISOLATION_HINT[d.isolation]}>
          <select value={d.isolation} onChange={set("isolation")} aria-invalid={invalid("isolation")}>
            <option value="">team default</option>
            {ISOLATIONS.map((i) => (
              <option key={i} value={i}>
                {i === "worktree" ? "its own work tree" : "shared work dir"}
              </option>
            ))}
          </select>
        </Field>
        {d.isolation === "worktree" && (
          <Field label="Base branch (optional)" field="base" issues={issues} hint="empty: the branch checked out in the work dir">
            <input value={d.base} onChange={set("base")} aria-invalid={invalid("base")} className="mono" autoComplete="off" />
          </Field>
        )}
      </div>
      <fieldset className="plain">
        <legend className="muted">Safety net (empty: $2.00, 50 turns, 300 s per turn)</legend>
        <div className="three">
          <Field label="Max cost (USD)" field="safety.maxCostUsd" issues={issues}>
            <input
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              value={d.maxCost}
              onChange={set("maxCost")}
              aria-invalid={invalid("safety.maxCostUsd")}
            />
          </Field>
          <Field label="Max turns" field="safety.maxTurns" issues={issues}>
            <input type="number" min="1" step="1" value={d.maxTurns} onChange={set("maxTurns")} aria-invalid={invalid("safety.maxTurns")} />
          </Field>
          <Field label="Timeout (s)" field="safety.timeoutMs" issues={issues}>
            <input type="number" min="1" step="1" value={d.timeout} onChange={set("timeout")} aria-invalid={invalid("safety.timeoutMs")} />
          </Field>
        </div>
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={d.member} onChange={set("member")} />
        <span>as team member (joins the roster of {team} with the worker guide and its own identity)</span>
      </label>
      {d.member && (
        <Field label="Role" field="role" issues={issues}>
          <input value={d.role} onChange={set("role")} aria-invalid={invalid("role")} placeholder="e.g. backend" />
        </Field>
      )}
      {/* The phase gate's refusal is said, with what to do about it, by GateFix. */}
      {spawn.error && !gateRefusal(spawn.error) && (
        <p className="form-error" role="alert" data-testid="spawn-error">
          {spawn.error.message}
        </p>
      )}
      <GateFix team={team} error={spawn.error} again={`Start ${d.name.trim() || "the member"} again`} />
      <div className="row">
        <button type="submit" className="primary" disabled={spawn.isPending || !d.name.trim()}>
          {spawn.isPending ? "Starting…" : d.member ? "Start team member" : "Start session"}
        </button>
        {spawn.data && !spawn.error && (
          <span className="muted" role="status">
            started <Link href={`/sessions/${encodeURIComponent(spawn.data.name)}`}>{spawn.data.name}</Link>
          </span>
        )}
      </div>
    </form>
  );
}
