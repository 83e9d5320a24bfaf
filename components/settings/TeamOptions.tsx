"use client";

import { useEffect, useState } from "react";
import type { ApiError } from "@/lib/browser-api.ts";
import { useTeamSettings, useUpdateTeamSettings, type TeamSettings } from "@/lib/queries/settings.ts";
import { ListState } from "../ui/Card.tsx";

type NumberKey = "chatRateLimitPerMinute" | "chatLoopMaxExchanges" | "chatLoopWindowSeconds" | "inboxLiveLimit";
const NUMBERS: Array<{ key: NumberKey; label: string; hint: string }> = [
  { key: "chatRateLimitPerMinute", label: "Chat rate limit (messages per minute)", hint: "per sender; a broadcast counts once; the operator is exempt" },
  { key: "chatLoopMaxExchanges", label: "Loop guard: exchanges", hint: "direct messages between two members before the pair is blocked" },
  { key: "chatLoopWindowSeconds", label: "Loop guard: window (seconds)", hint: "the window those exchanges are counted in, and how long the block lasts" },
  { key: "inboxLiveLimit", label: "Inbox live limit", hint: "newest messages kept live per inbox; older ones are archived, never deleted" },
];
type Draft = Pick<TeamSettings, "wake" | "gateEnforcement"> & Record<NumberKey, string>;

const toDraft = (s: TeamSettings): Draft => ({
  wake: s.wake,
  gateEnforcement: s.gateEnforcement,
  chatRateLimitPerMinute: String(s.chatRateLimitPerMinute),
  chatLoopMaxExchanges: String(s.chatLoopMaxExchanges),
  chatLoopWindowSeconds: String(s.chatLoopWindowSeconds),
  inboxLiveLimit: String(s.inboxLiveLimit),
});

/** The hub's per-field messages: `details.issues` of an invalid_input error, by field. */
function issuesByField(e: ApiError | null): Map<string, string> {
  const issues = (e?.details.issues ?? []) as Array<{ field: string; message: string }>;
  return new Map(issues.map((i) => [i.field, i.message]));
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
  const errors = issuesByField(update.error as ApiError | null);
  const inline = NUMBERS.some(({ key }) => errors.has(key));
  if (!draft) return <ListState loading={settings.isLoading} error={settings.error} empty hint="No settings." />;
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setDirty(true);
  };
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
  return (
    <form
      aria-label={`options of team ${team}`}
      onSubmit={(e) => {
        e.preventDefault();
        // Empty number fields are sent as they are, so the hub names the field that needs a value.
        const numbers = Object.fromEntries(NUMBERS.map(({ key }) => [key, draft[key].trim() === "" ? null : Number(draft[key])]));
        update.mutate({ wake: draft.wake, gateEnforcement: draft.gateEnforcement, ...numbers }, { onSuccess: () => setDirty(false) });
      }}
    >
      <div className="options-grid">
        {onOff("wake", "Wake-ups", "deliver a turn to an idle member session when its contract becomes ready or a message arrives")}
        {onOff("gateEnforcement", "Phase-gate enforcement", "a team_spawn batch after the first needs a passed phase gate")}
        {NUMBERS.map(({ key, label, hint }) => (
          <label className="field" key={key}>
            <span>{label}</span>
            <input type="number" inputMode="numeric" value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} aria-label={label} aria-invalid={errors.has(key) || undefined} data-testid={`setting-${key}`} />
            {errors.has(key) ? <span className="error">{errors.get(key)}</span> : <span className="hint">{hint}</span>}
          </label>
        ))}
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
        {update.isSuccess && !dirty && <span className="muted" role="status">Saved.</span>}
        {update.error && !inline && <span className="form-error" role="alert">{update.error.message}</span>}
      </div>
    </form>
  );
}
