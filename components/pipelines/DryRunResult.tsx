import type { DryRunResult } from "@/lib/api/pipelines.ts";
import { JsonView } from "../ui/JsonView.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

/** The fields of an action that say what it does (everything but its type), as one line each. */
const fieldsOf = (action: Record<string, unknown>) => Object.entries(action).filter(([k]) => k !== "type");
type Field = [string, unknown];
const valueOf = ([k, v]: Field, key: "field" | "value"): SortValue => (key === "field" ? k : typeof v === "string" ? v : JSON.stringify(v));

/** The fields of the action a dry run would run, in the action's order until a column header is clicked. */
function ActionFields({ action }: { action: Record<string, unknown> }) {
  const { rows, header } = useSort<Field, "field" | "value">(fieldsOf(action), valueOf);
  return (
    <table className="action-fields sortable">
      <thead>
        <tr>
          {header("Field", "field")}
          {header("Value", "value")}
        </tr>
      </thead>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{typeof v === "string" ? v : <JsonView value={v} label={k} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Verdict({ label, value, tone }: { label: string; value: string; tone: "yes" | "no" | "error" | "none" }) {
  return (
    <div className={`verdict ${tone}`}>
      <span className="muted">{label}</span> <strong>{value}</strong>
    </div>
  );
}

/** What a dry run found: does the trigger fire, what does the condition say, what would run. */
export function DryRunResultView({ result }: { result: DryRunResult }) {
  const condition =
    result.conditionError !== undefined
      ? { value: `error: ${result.conditionError}`, tone: "error" as const }
      : result.conditionResult === null
        ? { value: result.triggerMatched ? "none (always runs)" : "not evaluated", tone: "none" as const }
        : { value: String(result.conditionResult), tone: result.conditionResult ? ("yes" as const) : ("no" as const) };
  return (
    <div className="stack" data-testid="dry-run-result" aria-live="polite">
      <div className="row">
        <Verdict
          label="trigger"
          value={result.triggerMatched ? "fires" : `does not fire: ${result.reason ?? ""}`}
          tone={result.triggerMatched ? "yes" : "no"}
        />
        <Verdict label="condition" value={condition.value} tone={condition.tone} />
      </div>
      {result.action ? (
        <div data-testid="dry-run-action">
          <p>
            Would run <code>{String(result.action.type)}</code>:
          </p>
          <ActionFields action={result.action} />
        </div>
      ) : result.actionError ? (
        <p className="error">The action could not be rendered: {result.actionError}</p>
      ) : (
        result.triggerMatched && result.conditionError === undefined && <p className="muted">Nothing would run.</p>
      )}
    </div>
  );
}
