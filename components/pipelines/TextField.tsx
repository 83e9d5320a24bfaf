"use client";

import { useId } from "react";
import type { FieldIssue } from "@/lib/field-issues.ts";

/**
 * A labelled input with the hub's message for it underneath. `field` is the hub's name for the
 * value (`rules[0].condition`), so tests and people can match a message to its field.
 */
export function TextField({
  field,
  label,
  value,
  onChange,
  issues,
  placeholder,
  example,
  list,
  hint,
  long,
  type = "text",
}: {
  field: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  issues: FieldIssue[];
  placeholder?: string;
  /** A value one might write, said under the field rather than greyed in it (where it would look like a value). */
  example?: string;
  /** A datalist's id: the team's members or contracts, suggested. */
  list?: string;
  hint?: string;
  long?: boolean;
  type?: "text" | "number";
}) {
  const id = useId();
  const help = [hint, example !== undefined ? `such as ${example}` : undefined].filter(Boolean).join(" · ");
  const props = {
    id,
    value,
    placeholder,
    "aria-invalid": issues.length > 0,
    "aria-describedby": issues.length ? `${id}-error` : help ? `${id}-hint` : undefined,
    spellCheck: false,
  };
  return (
    <div className="field" data-field={field}>
      <label htmlFor={id}>{label}</label>
      {long ? (
        <textarea rows={2} {...props} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type={type} {...props} list={list} autoComplete={list ? "off" : undefined} onChange={(e) => onChange(e.target.value)} />
      )}
      {help && issues.length === 0 && (
        <span className="hint" id={`${id}-hint`}>
          {help}
        </span>
      )}
      <Problems issues={issues} id={`${id}-error`} />
    </div>
  );
}

/** The hub's messages for one field. */
export function Problems({ issues, id }: { issues: FieldIssue[]; id?: string }) {
  if (issues.length === 0) return null;
  return (
    <span className="error" id={id} data-testid="field-error">
      {issues.map((i) => i.message).join("; ")}
    </span>
  );
}
