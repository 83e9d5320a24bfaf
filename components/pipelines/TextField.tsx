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
  hint?: string;
  long?: boolean;
  type?: "text" | "number";
}) {
  const id = useId();
  const props = {
    id,
    value,
    placeholder,
    "aria-invalid": issues.length > 0,
    "aria-describedby": issues.length ? `${id}-error` : hint ? `${id}-hint` : undefined,
    spellCheck: false,
  };
  return (
    <div className="field" data-field={field}>
      <label htmlFor={id}>{label}</label>
      {long ? (
        <textarea rows={2} {...props} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type={type} {...props} onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && issues.length === 0 && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
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
