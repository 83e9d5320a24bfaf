"use client";

import { useEffect, useState } from "react";
import type { RunnableConfig } from "@/lib/api/runnable.ts";
import { issuesOf } from "@/lib/field-issues.ts";
import { useTeamSettings, useUpdateTeamSettings } from "@/lib/queries/settings.ts";
import { ListState } from "../ui/Card.tsx";

type Key = keyof RunnableConfig;
type Draft = Record<Key, string>;
type Field = { key: Key; label: string; hint: string; number?: boolean; placeholder?: string };

const FIELDS: Field[] = [
  { key: "setup", label: "Setup", hint: "runs once in each new work tree before the session's first turn", placeholder: "e.g. npm ci" },
  { key: "run", label: "Run", hint: "a long-running command (a dev server) started and stopped from the session page", placeholder: "e.g. npm run dev" },
  { key: "archive", label: "Archive", hint: "runs before a work tree is removed (discard, delete)", placeholder: "e.g. ./scripts/cleanup.sh" },
  { key: "ports", label: "Ports", hint: "ports each work-tree session holds (0 to 16); PORT is the first", number: true, placeholder: "default 1" },
  {
    key: "setupTimeoutMs",
    label: "Setup time limit (ms)",
    hint: "setup is killed after this long (1000 to 7200000)",
    number: true,
    placeholder: "default 600000",
  },
];

const toDraft = (c: RunnableConfig | null): Draft => Object.fromEntries(FIELDS.map(({ key }) => [key, c?.[key] === undefined ? "" : String(c[key])])) as Draft;

/** Empty fields are left out; numbers go as numbers (or as typed, so the hub names what is wrong with them). */
function toConfig(d: Draft): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const { key, number } of FIELDS) {
    const v = d[key].trim();
    if (v !== "") out[key] = number && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

/**
 * The team's `worktree` option (docs/worktrees.md#teamhubjson): what makes work trees runnable where the repository has
 * no teamhub.json. A teamhub.json on the base branch takes precedence. The hub's refusals show under their field.
 */
export function WorktreeOptions({ team }: { team: string }) {
  const settings = useTeamSettings(team);
  const update = useUpdateTeamSettings(team);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (settings.data && !dirty) setDraft(toDraft(settings.data.worktree));
  }, [settings.data, dirty]);
  if (!draft || !settings.data) return <ListState loading={settings.isLoading} error={settings.error} empty hint="No settings." />;
  const errors = new Map(issuesOf(update.error).map((i) => [i.field, i.message]));
  const fieldError = (key: Key) => errors.get(`worktree.${key}`);
  // A refusal about the option as a whole (an unknown field) or no field at all is shown beside the buttons.
  const general = update.error && !FIELDS.some(({ key }) => fieldError(key)) ? (errors.get("worktree") ?? update.error.message) : null;
  const saved = settings.data.worktree;
  const set = (key: Key, value: string) => {
    setDraft({ ...draft, [key]: value });
    setDirty(true);
  };
  const save = (config: Record<string, string | number> | null) =>
    update.mutate({ worktree: config as RunnableConfig | null }, { onSuccess: () => setDirty(false) });
  return (
    <form
      aria-label={`work tree commands of team ${team}`}
      onSubmit={(e) => {
        e.preventDefault();
        const config = toConfig(draft);
        save(Object.keys(config).length ? config : null);
      }}
    >
      <p className="muted">
        For repositories without a <code>teamhub.json</code> on the base branch: each new work tree of the team runs these. A <code>teamhub.json</code> takes
        precedence.
      </p>
      <div className="options-grid">
        {FIELDS.map(({ key, label, hint, number, placeholder }) => (
          <label className="field" key={key}>
            <span>{label}</span>
            <input
              className={number ? undefined : "mono"}
              type={number ? "number" : "text"}
              inputMode={number ? "numeric" : undefined}
              value={draft[key]}
              placeholder={placeholder}
              onChange={(e) => set(key, e.target.value)}
              aria-label={`Work tree ${label.toLowerCase()}`}
              aria-invalid={fieldError(key) ? true : undefined}
              data-testid={`worktree-${key}`}
            />
            {fieldError(key) ? <span className="error">{`${label}: ${fieldError(key)}`}</span> : <span className="hint">{hint}</span>}
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
        {!dirty && saved !== null && (
          <button type="button" disabled={update.isPending} onClick={() => save(null)}>
            Clear
          </button>
        )}
        {!dirty && saved === null && !update.isPending && <span className="muted">Not set.</span>}
        {update.isSuccess && !dirty && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
        {general && (
          <span className="form-error" role="alert">
            {general}
          </span>
        )}
      </div>
    </form>
  );
}
