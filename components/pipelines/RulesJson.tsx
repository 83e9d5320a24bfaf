"use client";

import { useState } from "react";
import type { FieldIssue } from "@/lib/field-issues.ts";
import { toSend } from "./rule-draft.ts";

/**
 * The whole rule list as JSON, for what the form has no inputs for (a create_contract's
 * dependencies, criteria, …). Every parse of the text replaces the draft; the hub's issues are
 * listed under it by field.
 */
export function RulesJson({ rules, issues, onChange }: { rules: unknown[]; issues: FieldIssue[]; onChange: (rules: unknown[]) => void }) {
  const [text, setText] = useState(() => JSON.stringify(rules.map(toSend), null, 2));
  const [syntax, setSyntax] = useState<string | null>(null);
  const change = (next: string) => {
    setText(next);
    let parsed: unknown;
    try {
      parsed = JSON.parse(next);
    } catch (e) {
      setSyntax(`not valid JSON: ${(e as Error).message}`);
      return;
    }
    if (!Array.isArray(parsed)) return setSyntax("must be a JSON array of rules");
    setSyntax(null);
    onChange(parsed);
  };
  const shown = syntax ? [] : issues.filter((i) => i.field.startsWith("rules"));
  return (
    <>
      <label className="field" data-field="rules">
        <span>rules (JSON)</span>
        <textarea rows={18} value={text} onChange={(e) => change(e.target.value)} spellCheck={false} aria-invalid={syntax !== null || shown.length > 0} />
        {syntax && (
          <span className="error" data-testid="field-error">
            {syntax}
          </span>
        )}
      </label>
      {shown.length > 0 && (
        <ul className="issues" aria-label="problems">
          {shown.map((i) => (
            <li key={`${i.field}:${i.message}`} className="error" data-field={i.field} data-testid="field-error">
              <code>{i.field}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
