import type { RewindSummary } from "@/lib/api/snapshots.ts";
import { JsonDiff } from "../ui/JsonDiff.tsx";
import { sides } from "./diff-summary.ts";
import { RewindFacts } from "./RewindFacts.tsx";

/** What a rollback or replay did, and how to undo it. */
export function RewindResult({ what, summary, onCompare }: { what: "rollback" | "replay"; summary: RewindSummary; onCompare: () => void }) {
  const overridden = Object.entries(summary.overridden);
  return (
    <div className="stack" data-testid="rewind-result" data-what={what}>
      <p>
        {what === "replay" ? "Replayed" : "Rolled back to"} <code>{summary.snapshot}</code>. The state before was saved as <code>{summary.autoSnapshot}</code>:
        roll back to it to undo.{" "}
        <button type="button" onClick={onCompare}>
          Compare it with the current state
        </button>
      </p>
      <RewindFacts summary={summary} tense="done" what={what} />
      {overridden.length > 0 && (
        <div data-testid="overridden">
          <h3>Overrides applied</h3>
          {overridden.map(([id, fields]) => (
            <div key={id}>
              <code>{id}</code>
              <JsonDiff before={sides(fields)[0]} after={sides(fields)[1]} onlyChanges labels={["snapshot", "replay"]} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
