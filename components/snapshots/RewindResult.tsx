import type { RewindSummary } from "@/lib/queries/snapshots.ts";
import { JsonDiff } from "../ui/JsonDiff.tsx";
import { sides } from "./diff-summary.ts";

const more = (shown: number, total: number) => (total > shown ? ` and ${total - shown} more` : "");
const move = (m: { from: string | null; to: string | null }) => `${m.from ?? "(none)"} → ${m.to ?? "(none)"}`;

/** What a rollback or replay did, and how to undo it. */
export function RewindResult({ what, summary, onCompare }: { what: "rollback" | "replay"; summary: RewindSummary; onCompare: () => void }) {
  const overridden = Object.entries(summary.overridden);
  return (
    <div className="stack" data-testid="rewind-result" data-what={what}>
      <p>
        {what === "replay" ? "Replayed" : "Rolled back to"} <code>{summary.snapshot}</code>. The state before was saved as <code>{summary.autoSnapshot}</code>: roll back to it
        to undo.{" "}
        <button type="button" onClick={onCompare}>Compare it with the current state</button>
      </p>
      <ul className="plain">
        <li>
          <strong>{summary.rolledBackCount}</strong> version{summary.rolledBackCount === 1 ? "" : "s"} rolled back
          {summary.rolledBackCount > 0 && <span className="mono muted"> {summary.rolledBackVersions.join(", ")}{more(summary.rolledBackVersions.length, summary.rolledBackCount)}</span>}
        </li>
        {summary.reactivatedCount > 0 && (
          <li>
            <strong>{summary.reactivatedCount}</strong> active again <span className="mono muted">{summary.reactivatedVersions.join(", ")}</span>
          </li>
        )}
        <li>
          <strong>{summary.contractsChangedCount}</strong> contract{summary.contractsChangedCount === 1 ? "" : "s"} moved
          {summary.contractsChanged.map((m) => (
            <div key={m.id} className="muted" data-testid={`moved-${m.id}`}>
              <code>{m.id}</code> {move(m.status)}
              {m.assignee.from !== m.assignee.to && <> · assignee {move(m.assignee)}</>}
            </div>
          ))}
        </li>
        <li><strong>{summary.membersNotified}</strong> member{summary.membersNotified === 1 ? "" : "s"} told</li>
        {summary.messagesRestored > 0 && <li><strong>{summary.messagesRestored}</strong> archived messages back in their inboxes</li>}
      </ul>
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
