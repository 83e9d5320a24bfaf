"use client";

import { useId } from "react";
import { scopeOf, TRIGGER_TYPES, type Scope, type TriggerType } from "@/lib/api/pipelines.ts";
import { issuesAt, type FieldIssue } from "@/lib/field-issues.ts";
import {
  ACTION_FIELDS,
  ACTION_TYPES,
  actionType,
  filterFields,
  formPaths,
  getAt,
  RATE_FIELDS,
  setAt,
  triggerType,
  withAction,
  withTrigger,
  type FieldSpec,
  type Json,
} from "./rule-draft.ts";
import { Problems, TextField } from "./TextField.tsx";
import { useContracts } from "@/lib/queries/home.ts";
import { useRoster } from "@/lib/queries/roster.ts";

/** The datalists that fields naming a member or a contract suggest from (rendered once per editor by PickerLists). */
const PICKER_LISTS = { member: "pipeline-members", contract: "pipeline-contracts" } as const;

/** The team's members and contracts, for the rule fields that name one. */
export function PickerLists({ team }: { team: string }) {
  const roster = useRoster(team).data ?? [];
  const contracts = useContracts(team).data?.items ?? [];
  return (
    <>
      <datalist id={PICKER_LISTS.member}>
        {roster.map((m) => (
          <option key={m.name} value={m.name}>
            {m.role || "member"}
          </option>
        ))}
      </datalist>
      <datalist id={PICKER_LISTS.contract}>
        {contracts.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title}
          </option>
        ))}
      </datalist>
    </>
  );
}

const VARIABLES: Record<Scope, string> = {
  artifact: "artifact (id, type, name, version, publisher, summary), data (the version's JSON), event",
  contract: "contract (id, title, status, assignee, assigner, priority, retryCount, statusReason, inputs), event",
  message: "message (id, from, to, kind, text), event",
  state: "state (id, member, role, status, task, ref, keyFindings, verification), event",
};

const EXAMPLE: Record<Scope, string> = {
  artifact: "data.failed > 0",
  contract: "contract.priority == 'high'",
  message: "message.text.contains('urgent')",
  state: "state.status == 'blocked'",
};

/** Issues about this rule that no input of the form shows: listed under the rule so none is lost. */
function unplaced(issues: FieldIssue[], prefix: string, rule: unknown): FieldIssue[] {
  const shown = new Set(formPaths(rule).map((p) => `${prefix}.${p}`));
  return issues.filter((i) => (i.field === prefix || i.field.startsWith(`${prefix}.`) || i.field.startsWith(`${prefix}[`)) && !shown.has(i.field));
}

/** One rule of the editor: trigger and its filters, condition, action and its fields, rate limit. */
export function RuleForm({
  index,
  rule,
  issues,
  onChange,
  onRemove,
}: {
  index: number;
  rule: unknown;
  issues: FieldIssue[];
  onChange: (r: Json) => void;
  onRemove?: () => void;
}) {
  const prefix = `rules[${index}]`;
  const id = useId();
  const trigger = triggerType(rule);
  const action = actionType(rule);
  const scope = scopeOf(trigger);
  const input = (spec: FieldSpec, extra: { hint?: string; type?: "number" } = {}) => {
    const value = getAt(rule, spec.path);
    return (
      <TextField
        key={spec.path}
        field={`${prefix}.${spec.path}`}
        label={spec.optional ? `${spec.label} (optional)` : spec.label}
        value={value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value)}
        placeholder={spec.placeholder}
        example={spec.example}
        list={spec.picker ? PICKER_LISTS[spec.picker] : undefined}
        long={spec.long}
        issues={issuesAt(issues, `${prefix}.${spec.path}`)}
        onChange={(v) => onChange(setAt(rule, spec.path, v))}
        {...extra}
      />
    );
  };
  const extra = unplaced(issues, prefix, rule);
  return (
    <fieldset className="rule" data-testid={`rule-${index}`}>
      <legend>
        Rule {index + 1}
        {onRemove && (
          <button type="button" className="ghost" onClick={onRemove} aria-label={`remove rule ${index + 1}`}>
            remove
          </button>
        )}
      </legend>
      {input({ path: "name", label: "name", optional: true, example: "reopen on failing tests" })}
      <div className="rule-row">
        <div className="field" data-field={`${prefix}.trigger.type`}>
          <label htmlFor={`${id}-trigger`}>when (trigger)</label>
          <select id={`${id}-trigger`} value={trigger} onChange={(e) => onChange(withTrigger(rule, e.target.value as TriggerType))}>
            {TRIGGER_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <Problems issues={issuesAt(issues, `${prefix}.trigger.type`)} />
        </div>
        {filterFields(rule).map((f) => input(f))}
      </div>
      {input({ path: "condition", label: "condition (optional)", example: EXAMPLE[scope] }, { hint: `CEL over ${VARIABLES[scope]}` })}
      <div className="rule-row">
        <div className="field" data-field={`${prefix}.action.type`}>
          <label htmlFor={`${id}-action`}>then (action)</label>
          <select id={`${id}-action`} value={action ?? ""} onChange={(e) => onChange(withAction(rule, e.target.value as (typeof ACTION_TYPES)[number]))}>
            {action === null && <option value="">choose an action</option>}
            {ACTION_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <Problems issues={issuesAt(issues, `${prefix}.action.type`)} />
        </div>
        {RATE_FIELDS.map((f) => input(f, { type: "number" }))}
      </div>
      {action && ACTION_FIELDS[action].map((f) => input(f, f.long ? { hint: "text; ${…} inserts a CEL value, e.g. ${artifact.id}" } : {}))}
      {extra.length > 0 && (
        <ul className="issues" aria-label={`other problems of rule ${index + 1}`}>
          {extra.map((i) => (
            <li key={`${i.field}:${i.message}`} className="error" data-field={i.field}>
              <code>{i.field}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
