"use client";

import { useMemo, useState } from "react";
import { ReplayInput } from "@/lib/api/snapshots.ts";
import { diffJson } from "@/lib/json-diff.ts";
import { issuesOf, type FieldIssue } from "@/lib/field-issues.ts";
import type { ContractState, RewindSummary } from "@/lib/api/snapshots.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { useSnapshot, useSnapshotActions } from "@/lib/queries/snapshots.ts";
import { ListState } from "../ui/Card.tsx";
import { RecordedCode } from "./CodeMoves.tsx";
import { RewindConfirm } from "./RewindConfirm.tsx";

type Overrides = Record<string, { inputs?: unknown; assignee?: unknown; title?: unknown }>;

/** What the snapshot has now, in the shape of overrides: the starting point to edit. */
const prefill = (contracts: ContractState[]): Overrides =>
  Object.fromEntries(contracts.map((c) => [c.id, { inputs: c.inputs, assignee: c.assignee, title: c.title }]));

/** Only the entries that differ from the snapshot go to the hub: the rest would change nothing. */
function changedOnly(edited: Overrides, base: Overrides): Overrides {
  return Object.fromEntries(Object.entries(edited).filter(([id, o]) => diffJson(base[id], o).some((c) => c.kind !== "same")));
}

/** The text's problems, checked as it is typed with the same schema the hub parses replay input with. */
function check(text: string, base: Overrides): { overrides: Overrides | null; issues: FieldIssue[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { overrides: null, issues: [{ field: "overrides", rule: "json", message: `is not valid JSON: ${(e as Error).message}` }] };
  }
  const r = ReplayInput.shape.overrides.safeParse(parsed);
  if (!r.success)
    return {
      overrides: null,
      issues: r.error.issues.map((i) => ({ field: ["overrides", ...i.path.map(String)].join("."), rule: i.code, message: i.message })),
    };
  return { overrides: changedOnly(r.data as Overrides, base), issues: [] };
}

/** Overridden assignees that are not on the roster now (nor in the snapshot's): allowed, but likely a typo. */
export function unknownAssignees(overrides: Overrides | null, known: Set<string>): Array<{ contract: string; assignee: string }> {
  return Object.entries(overrides ?? {})
    .filter(([, o]) => typeof o.assignee === "string" && !known.has(o.assignee))
    .map(([contract, o]) => ({ contract, assignee: o.assignee as string }));
}

/**
 * Replay a snapshot with overrides `{contractId: {inputs?, assignee?, title?}}`, edited as JSON
 * prefilled with the snapshot's contracts. Replaying shows the hub's preview first (what re-runs,
 * rolls back, goes); the hub's refusals, of the preview or the replay, are listed by field.
 */
export function ReplayEditor({ team, id, onDone, onCancel }: { team: string; id: string; onDone: (s: RewindSummary) => void; onCancel: () => void }) {
  const snapshot = useSnapshot(team, id);
  const roster = useRoster(team).data;
  const base = useMemo(() => prefill(snapshot.data?.state.contracts ?? []), [snapshot.data]);
  const [text, setText] = useState<string | null>(null);
  const { replay, previewReplay } = useSnapshotActions(team);
  const shown = text ?? JSON.stringify(base, null, 2);
  const { overrides, issues } = check(shown, base);
  const refusal = previewReplay.error ?? replay.error;
  const all = [...issues, ...issuesOf(refusal)];
  const count = overrides ? Object.keys(overrides).length : 0;
  const known = new Set([...(roster ?? []).map((m) => m.name), ...(snapshot.data?.state.roster ?? []).map((m) => m.name)]);
  const strangers = roster ? unknownAssignees(overrides, known) : [];

  return (
    <div className="stack" data-testid="replay-editor">
      <ListState loading={snapshot.isLoading} error={snapshot.error} empty={false} hint="" />
      {snapshot.data && (
        <>
          <p className="muted">
            Edit the inputs, assignee or title of any contract of <code>{id}</code>; entries left as they are change nothing.{" "}
            {Object.keys(base).length === 0 && "This snapshot has no contracts, so a replay can only rewind."}
          </p>
          <RecordedCode code={snapshot.data.state.code ?? []} />
          <label className="field" data-field="overrides">
            <span>overrides (JSON)</span>
            <textarea
              rows={Math.min(22, shown.split("\n").length + 1)}
              value={shown}
              onChange={(e) => {
                replay.reset();
                previewReplay.reset();
                setText(e.target.value);
              }}
              spellCheck={false}
              aria-invalid={all.length > 0}
            />
          </label>
          {all.length > 0 && (
            <ul className="issues" aria-label="problems with the overrides">
              {all.map((i) => (
                <li key={`${i.field}:${i.message}`} className="error" data-field={i.field} data-testid="field-error">
                  {i.field && <code>{i.field}</code>}
                  {i.field && ": "}
                  {i.message}
                </li>
              ))}
            </ul>
          )}
          {strangers.length > 0 && (
            <ul className="warnings" aria-label="assignees not on the roster" data-testid="replay-unknown-assignees">
              {strangers.map((x) => (
                <li key={x.contract} className="warning" data-field={`overrides.${x.contract}.assignee`}>
                  <code>overrides.{x.contract}.assignee</code>: {x.assignee} is not on the roster of {team}; the contract will wait for a member of that name.
                </li>
              ))}
            </ul>
          )}
          <div className="row">
            <RewindConfirm
              label={`Replay ${id}`}
              what="replay"
              disabled={overrides === null || replay.isPending}
              intro={
                <>
                  Replay <code>{id}</code> with {count === 0 ? "no overrides" : `overrides for ${Object.keys(overrides ?? {}).join(", ")}`}? The hub first
                  snapshots the current state (a <code>pre-replay-…</code> snapshot: roll back to it to undo), restores <code>{id}</code>, applies the
                  overrides, and re-runs the overridden contracts and everything downstream of them; their members are woken when they become ready.
                </>
              }
              load={() => previewReplay.mutateAsync({ id, overrides: overrides ?? {} })}
              onConfirm={() => overrides && replay.mutate({ id, overrides }, { onSuccess: onDone })}
            />
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
            <span className="muted" role="status">
              {overrides ? `${count} contract${count === 1 ? "" : "s"} overridden` : ""}
            </span>
          </div>
          {refusal && issuesOf(refusal).length === 0 && <p className="form-error">{refusal.message}</p>}
        </>
      )}
    </div>
  );
}
