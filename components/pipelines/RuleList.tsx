import type { Rule } from "@/lib/api/pipelines.ts";
import { JsonView } from "../ui/JsonView.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";
import { ACTION_FIELDS, getAt } from "./rule-draft.ts";

type Column = "number" | "when" | "if" | "then" | "rate";
/** A rule with its place in the pipeline, which sorting must not lose: executions name rules by it. */
type Numbered = { r: Rule; i: number };

const valueOf = ({ r, i }: Numbered, key: Column): SortValue => {
  switch (key) {
    case "number":
      return i;
    case "when":
      return r.trigger.type;
    case "if":
      return r.condition ?? null;
    case "then":
      return r.action.type;
    case "rate":
      // Runs allowed per hour, so "10 per 60 s" and "600 per 3600 s" sort together.
      return r.rateLimit ? (r.rateLimit.max * 3600) / r.rateLimit.perSeconds : null;
  }
};

const filters = (r: Rule) =>
  Object.entries(r.trigger)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} = ${String(v)}`)
    .join(", ");

/** A pipeline's rules as sentences: when, if, then; the full JSON on request. */
export function RuleList({ rules }: { rules: Rule[] }) {
  const { rows, header } = useSort<Numbered, Column>(
    rules.map((r, i) => ({ r, i })),
    valueOf,
  );
  return (
    <>
      <table className="sortable stack-on-phone" data-testid="rule-list">
        <thead>
          <tr>
            {header("#", "number", true)}
            {header("When", "when")}
            {header("If", "if")}
            {header("Then", "then")}
            {header("Rate limit", "rate", true)}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ r, i }) => (
            <tr key={i}>
              <td className="muted num" data-label="rule">
                {i + 1}
                {r.name && <div>{r.name}</div>}
              </td>
              <td>
                <code>{r.trigger.type}</code>
                {filters(r) && <div className="muted mono">{filters(r)}</div>}
              </td>
              <td data-label="if">{r.condition ? <code>{r.condition}</code> : <span className="muted">always</span>}</td>
              <td>
                <code>{r.action.type}</code>
                {ACTION_FIELDS[r.action.type].map((f) => {
                  const v = getAt(r, f.path);
                  return v === undefined ? null : (
                    <div key={f.path} className="muted">
                      {f.label}: <span className="mono">{String(v)}</span>
                    </div>
                  );
                })}
              </td>
              <td className="muted num" data-label="rate limit">
                {r.rateLimit ? `${r.rateLimit.max} per ${r.rateLimit.perSeconds} s` : "none"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>As JSON</summary>
        <JsonView value={rules} label="rules as JSON" />
      </details>
    </>
  );
}
