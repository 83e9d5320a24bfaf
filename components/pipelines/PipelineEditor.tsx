"use client";

import Link from "next/link";
import { useState } from "react";
import { issuesAt, issuesOf, type FieldIssue } from "@/lib/field-issues.ts";
import { usePipelineActions } from "@/lib/queries/pipelines.ts";
import { isBlank, newRule, toSend, valueAtField, type Json } from "./rule-draft.ts";
import { PickerLists, RuleForm } from "./RuleForm.tsx";
import { RulesJson } from "./RulesJson.tsx";
import { Problems, TextField } from "./TextField.tsx";

export type Draft = { id: string; rules: unknown[] };
export const EMPTY_DRAFT: Draft = { id: "", rules: [newRule()] };

/**
 * Writing a pipeline: a form per rule, or the whole list as JSON. `issues` are the hub's answer
 * to the draft as typed (the page validates it while the person types); creating is possible
 * once it has none. With `editing` (a pipeline's id) the same editor replaces that pipeline's
 * rules (docs/domain.md#editing-a-pipeline); `onDone` follows a save or a cancel.
 */
export function PipelineEditor({
  team,
  draft,
  onChange,
  issues,
  checking,
  editing,
  onDone,
}: {
  team: string;
  draft: Draft;
  onChange: (d: Draft) => void;
  issues: FieldIssue[];
  checking: boolean;
  editing?: string;
  onDone?: () => void;
}) {
  const [mode, setMode] = useState<"form" | "json">("form");
  const [created, setCreated] = useState<string | null>(null);
  // A new generation after each creation starts the JSON text afresh.
  const [generation, setGeneration] = useState(0);
  const actions = usePipelineActions(team);
  const create = editing ? actions.update : actions.create;
  // Until the person tries to create, the form leaves alone the fields nobody typed into yet.
  const [insist, setInsist] = useState(false);
  const refused = issuesOf(create.error);
  const all = [...issues, ...refused].filter((i) => insist || mode === "json" || !isBlank(valueAtField(draft, i.field)));
  const change = (d: Draft) => {
    create.reset();
    setCreated(null);
    onChange(d);
  };
  const setRule = (i: number, r: Json) => change({ ...draft, rules: draft.rules.map((x, j) => (j === i ? r : x)) });
  const ready = (editing !== undefined || draft.id !== "") && !checking && !create.isPending;
  return (
    <form
      className="stack"
      aria-label={editing ? `edit the rules of ${editing}` : "new pipeline"}
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        if (issues.length) return setInsist(true);
        create.mutate(
          { id: editing ?? draft.id, rules: draft.rules.map(toSend) },
          {
            onSuccess: (p) => {
              if (editing) return onDone?.();
              setCreated(p.id);
              setInsist(false);
              setGeneration((g) => g + 1);
              onChange(EMPTY_DRAFT);
            },
          },
        );
      }}
    >
      <div className="row editor-head">
        {!editing && (
          <TextField
            field="id"
            label="pipeline id"
            value={draft.id}
            example="ci-loop"
            issues={issuesAt(all, "id")}
            onChange={(id) => change({ ...draft, id })}
          />
        )}
        <div className="row" role="group" aria-label="edit rules as">
          <button type="button" aria-pressed={mode === "form"} className={mode === "form" ? "primary" : undefined} onClick={() => setMode("form")}>
            Form
          </button>
          <button type="button" aria-pressed={mode === "json"} className={mode === "json" ? "primary" : undefined} onClick={() => setMode("json")}>
            JSON
          </button>
        </div>
      </div>
      {mode === "form" ? (
        <>
          <PickerLists team={team} />
          {draft.rules.map((rule, i) => (
            <RuleForm
              key={i}
              index={i}
              rule={rule}
              issues={all}
              onChange={(r) => setRule(i, r)}
              onRemove={draft.rules.length > 1 ? () => change({ ...draft, rules: draft.rules.filter((_, j) => j !== i) }) : undefined}
            />
          ))}
          <Problems issues={issuesAt(all, "rules")} />
          <div>
            <button type="button" onClick={() => change({ ...draft, rules: [...draft.rules, newRule()] })}>
              Add rule
            </button>
          </div>
        </>
      ) : (
        <RulesJson key={generation} rules={draft.rules} issues={all} onChange={(rules) => change({ ...draft, rules })} />
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={!ready}>
          {editing ? "Save rules" : "Create pipeline"}
        </button>
        {editing && (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        )}
        <span role="status" className="muted" data-testid="validation-status">
          {checking
            ? "checking…"
            : issues.length
              ? `${issues.length} problem${issues.length > 1 ? "s" : ""} to fix`
              : editing
                ? "ready to save: the new rules act on events from now on"
                : draft.id === ""
                  ? "rules are valid; give the pipeline an id"
                  : "ready to create"}
        </span>
      </div>
      {create.error && refused.every((i) => i.field === "") && <p className="form-error">{create.error.message}</p>}
      {created && (
        <p role="status" data-testid="pipeline-created">
          Created <Link href={`/pipelines/${created}`}>{created}</Link>.
        </p>
      )}
    </form>
  );
}
