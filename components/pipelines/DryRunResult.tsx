import type { DryRunResult } from "@/lib/api/pipelines.ts";
import { JsonView } from "../ui/JsonView.tsx";

/** The fields of an action that say what it does (everything but its type), as one line each. */
const fieldsOf = (action: Record<string, unknown>) => Object.entries(action).filter(([k]) => k !== "type");

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
          <table className="action-fields">
            <tbody>
              {fieldsOf(result.action).map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td>{typeof v === "string" ? v : <JsonView value={v} label={k} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : result.actionError ? (
        <p className="error">The action could not be rendered: {result.actionError}</p>
      ) : (
        result.triggerMatched && result.conditionError === undefined && <p className="muted">Nothing would run.</p>
      )}
    </div>
  );
}
