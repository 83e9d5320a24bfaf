import type { Rule } from "@/lib/api/pipelines.ts";
import { JsonView } from "../ui/JsonView.tsx";
import { ACTION_FIELDS, getAt } from "./rule-draft.ts";

const filters = (r: Rule) =>
  Object.entries(r.trigger)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} = ${String(v)}`)
    .join(", ");

/** A pipeline's rules as sentences: when, if, then; the full JSON on request. */
export function RuleList({ rules }: { rules: Rule[] }) {
  return (
    <>
      <table className="stack-on-phone">
        <thead>
          <tr>
            <th>#</th>
            <th>When</th>
            <th>If</th>
            <th>Then</th>
            <th>Rate limit</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r, i) => (
            <tr key={i}>
              <td className="muted" data-label="rule">
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
              <td className="muted" data-label="rate limit">
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
