"use client";

import { useEffect, useState } from "react";
import { PRESETS } from "@/lib/api/sessions.ts";
import { issuesOf } from "@/lib/field-issues.ts";
import { useTeamSettings, useUpdateTeamSettings, type TeamSettings } from "@/lib/queries/settings.ts";
import { ListState } from "../ui/Card.tsx";

type NumberKey = "chatRateLimitPerMinute" | "chatLoopMaxExchanges" | "chatLoopWindowSeconds" | "inboxLiveLimit" | "maxCostUsd" | "maxTurns" | "maxTimeoutMs";
type NumberField = { key: NumberKey; label: string; hint: string; decimal?: boolean };
const LIMITS: NumberField[] = [
  { key: "chatRateLimitPerMinute", label: "Chat rate limit (messages per minute)", hint: "per sender; a broadcast counts once; the operator is exempt" },
  { key: "chatLoopMaxExchanges", label: "Loop guard: exchanges", hint: "direct messages between two members before the pair is blocked" },
  { key: "chatLoopWindowSeconds", label: "Loop guard: window (seconds)", hint: "the window those exchanges are counted in, and how long the block lasts" },
  { key: "inboxLiveLimit", label: "Inbox live limit", hint: "newest messages kept live per inbox; older ones are archived, never deleted" },
];
// Bounds on what a member token may spawn (docs/security.md#capabilities); leads and the operator are not bound by them.
const BOUNDS: NumberField[] = [
  {
    key: "maxCostUsd",
    label: "Member spawns: max cost (USD)",
    hint: "the most a member may give a session it spawns (safety.maxCostUsd, maxBudgetUsd)",
    decimal: true,
  },
  { key: "maxTurns", label: "Member spawns: max turns", hint: "the most turns a member may give a session it spawns" },
  { key: "maxTimeoutMs", label: "Member spawns: max timeout (ms)", hint: "the longest time per interaction a member may give a session it spawns" },
];
const NUMBERS = [...LIMITS, ...BOUNDS];
type Draft = Pick<TeamSettings, "wake" | "gateEnforcement" | "maxPreset"> & Record<NumberKey | "rootDir", string>;

const toDraft = (s: TeamSettings): Draft => ({
  wake: s.wake,
  gateEnforcement: s.gateEnforcement,
  maxPreset: s.maxPreset,
  rootDir: s.rootDir ?? "",
  ...(Object.fromEntries(NUMBERS.map(({ key }) => [key, String(s[key])])) as Record<NumberKey, string>),
});

/** The hub's messages by the field they name (`details.issues`, or `details.field` of a single refusal). */
function issuesByField(error: unknown): Map<string, string> {
  return new Map(issuesOf(error).map((i) => [i.field, i.message]));
}

export function TeamOptions({ team }: { team: string }) {
  const settings = useTeamSettings(team);
  const update = useUpdateTeamSettings(team);
  const [draft, setDraft] = useState<Draft | null>(null);
  // A change saved elsewhere (CLI, another tab) shows up here unless this form is being edited.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (settings.data && !dirty) setDraft(toDraft(settings.data));
  }, [settings.data, dirty]);
  const errors = issuesByField(update.error);
  const inline = ["maxPreset", "rootDir", ...NUMBERS.map(({ key }) => key)].some((key) => errors.has(key));
  if (!draft) return <ListState loading={settings.isLoading} error={settings.error} empty hint="No settings." />;
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setDirty(true);
  };
  const note = (key: string, hint: string) => (errors.has(key) ? <span className="error">{errors.get(key)}</span> : <span className="hint">{hint}</span>);
  const onOff = (key: "wake" | "gateEnforcement", label: string, hint: string) => (
    <label className="field">
      <span>{label}</span>
      <select value={draft[key]} onChange={(e) => set({ [key]: e.target.value as "on" | "off" })} aria-label={label}>
        <option value="on">on</option>
        <option value="off">off</option>
      </select>
      <span className="hint">{hint}</span>
    </label>
  );
  const numberField = ({ key, label, hint, decimal }: NumberField) => (
    <label className="field" key={key}>
      <span>{label}</span>
      <input
        type="number"
        step={decimal ? "any" : undefined}
        inputMode={decimal ? "decimal" : "numeric"}
        value={draft[key]}
        onChange={(e) => set({ [key]: e.target.value })}
        aria-label={label}
        aria-invalid={errors.has(key) || undefined}
        data-testid={`setting-${key}`}
      />
      {note(key, hint)}
    </label>
  );
  return (
    <form
      aria-label={`options of team ${team}`}
      onSubmit={(e) => {
        e.preventDefault();
        // Empty number fields are sent as they are, so the hub names the field that needs a value.
        const numbers = Object.fromEntries(NUMBERS.map(({ key }) => [key, draft[key].trim() === "" ? null : Number(draft[key])]));
        const rootDir = draft.rootDir.trim() === "" ? null : draft.rootDir.trim();
        const choices = { wake: draft.wake, gateEnforcement: draft.gateEnforcement, maxPreset: draft.maxPreset, rootDir };
        update.mutate({ ...choices, ...numbers }, { onSuccess: () => setDirty(false) });
      }}
    >
      <div className="options-grid">
        {onOff("wake", "Wake-ups", "deliver a turn to an idle member session when its contract becomes ready or a message arrives")}
        {onOff("gateEnforcement", "Phase-gate enforcement", "a team_spawn batch after the first needs a passed phase gate")}
        {LIMITS.map(numberField)}
      </div>
      <div className="options-bounds">
        <fieldset className="plain">
          <legend className="muted">What a member token may spawn (leads and the operator are not bound by these)</legend>
          <div className="options-grid">
            <label className="field">
              <span>Member spawns: widest preset</span>
              <select
                value={draft.maxPreset}
                onChange={(e) => set({ maxPreset: e.target.value as Draft["maxPreset"] })}
                aria-label="Member spawns: widest preset"
                aria-invalid={errors.has("maxPreset") || undefined}
              >
                {PRESETS.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
              {note("maxPreset", "what a member token may spawn: the widest preset (read-only = plan < review < edit < full)")}
            </label>
            <label className="field">
              <span>Member spawns: root directory</span>
              <input
                className="mono"
                value={draft.rootDir}
                onChange={(e) => set({ rootDir: e.target.value })}
                placeholder="the hub's session work dir"
                aria-label="Member spawns: root directory"
                aria-invalid={errors.has("rootDir") || undefined}
                data-testid="setting-rootDir"
              />
              {note("rootDir", "an absolute path; members spawn only inside it; empty: the hub's session work dir")}
            </label>
            {BOUNDS.map(numberField)}
          </div>
        </fieldset>
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={update.isPending || !dirty}>
          {update.isPending ? "Saving…" : "Save"}
        </button>
        {dirty && (
          <button
            type="button"
            onClick={() => {
              setDirty(false);
              update.reset();
            }}
          >
            Discard changes
          </button>
        )}
        {update.isSuccess && !dirty && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
        {update.error && !inline && (
          <span className="form-error" role="alert">
            {update.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
