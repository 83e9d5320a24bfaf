import type { Entities, RewindPreview } from "@/lib/api/snapshots.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { CodeMoves } from "./CodeMoves.tsx";

type Tense = "preview" | "done";
const more = (shown: number, total: number) => (total > shown ? ` and ${total - shown} more` : "");
const move = (m: { from: string | null; to: string | null }) => `${m.from ?? "(none)"} → ${m.to ?? "(none)"}`;
const plural = (n: number, one: string) => `${one}${n === 1 ? "" : "s"}`;
/** The same fact, said before (a preview) or after (a result). */
const verb = (tense: Tense, done: string, will: string) => (tense === "done" ? done : will);

/** "2 contracts (a, b) and 1 pipeline (p)": only the kinds there are. */
function EntityList({ e }: { e: Entities }) {
  const parts = [
    { n: e.contractsCount, what: "contract", ids: e.contracts },
    { n: e.pipelinesCount, what: "pipeline", ids: e.pipelines },
  ].filter((p) => p.n > 0);
  return (
    <>
      {parts.map((p, i) => (
        <span key={p.what}>
          {i > 0 && " and "}
          <strong>{p.n}</strong> {plural(p.n, p.what)}{" "}
          <span className="mono muted">
            {p.ids.join(", ")}
            {more(p.ids.length, p.n)}
          </span>
        </span>
      ))}
    </>
  );
}

/**
 * What a rollback or replay changes, counted and listed: the contracts that re-run (status before
 * → after, and why), versions rolled back or active again, contracts and pipelines removed or
 * brought back, contracts moved, members told, work trees restored or branched. A preview and a result read the
 * same, in their tense.
 */
export function RewindFacts({ summary, tense, what }: { summary: RewindPreview; tense: Tense; what: "rollback" | "replay" }) {
  const s = summary;
  return (
    <ul className="plain rewind-facts" data-testid={`rewind-facts-${tense}`}>
      {(what === "replay" || s.reRunCount > 0) && (
        <li data-testid="facts-rerun">
          <strong>{s.reRunCount}</strong> {plural(s.reRunCount, "contract")} {verb(tense, "re-run", "will re-run")}
          {s.reRun.map((r) => (
            <div key={r.id} className="rerun" data-testid={`rerun-${r.id}`}>
              <code>{r.id}</code> <span className="muted">{r.assignee}</span> {r.from ? <StatusBadge status={r.from} /> : <span className="muted">new</span>} →{" "}
              <StatusBadge status={r.to} />{" "}
              <span className="muted">
                {r.because}
                {r.waitsFor.length > 0 && `; waits for ${r.waitsFor.join(", ")}`}
              </span>
            </div>
          ))}
          {s.reRunCount > s.reRun.length && <div className="muted">and {s.reRunCount - s.reRun.length} more</div>}
        </li>
      )}
      <li data-testid="facts-rolled-back">
        <strong>{s.rolledBackCount}</strong> {plural(s.rolledBackCount, "version")} {verb(tense, "rolled back", "will be rolled back")}
        {s.rolledBackCount > 0 && (
          <span className="mono muted">
            {" "}
            {s.rolledBackVersions.join(", ")}
            {more(s.rolledBackVersions.length, s.rolledBackCount)}
          </span>
        )}
      </li>
      {s.reactivatedCount > 0 && (
        <li data-testid="facts-reactivated">
          <strong>{s.reactivatedCount}</strong> {plural(s.reactivatedCount, "version")} {verb(tense, "active again", "will be active again")}{" "}
          <span className="mono muted">
            {s.reactivatedVersions.join(", ")}
            {more(s.reactivatedVersions.length, s.reactivatedCount)}
          </span>
        </li>
      )}
      {(s.removed.contractsCount > 0 || s.removed.pipelinesCount > 0) && (
        <li data-testid="facts-removed">
          <EntityList e={s.removed} /> {verb(tense, "removed", "will be removed")} <span className="muted">(not in the snapshot)</span>
        </li>
      )}
      {(s.restored.contractsCount > 0 || s.restored.pipelinesCount > 0) && (
        <li data-testid="facts-restored">
          <EntityList e={s.restored} /> {verb(tense, "brought back", "will be brought back")}
        </li>
      )}
      {s.pipelinesChanged.length > 0 && (
        <li data-testid="facts-pipelines-changed">
          <strong>{s.pipelinesChanged.length}</strong> {plural(s.pipelinesChanged.length, "pipeline")} {verb(tense, "set back", "will be set back")} to the
          snapshot&apos;s status and rules <span className="mono muted">{s.pipelinesChanged.join(", ")}</span>
        </li>
      )}
      <li data-testid="facts-moved">
        <strong>{s.contractsChangedCount}</strong> {plural(s.contractsChangedCount, "contract")} {verb(tense, "moved", "will move")}
        {s.contractsChanged.map((m) => (
          <div key={m.id} className="muted" data-testid={`moved-${m.id}`}>
            <code>{m.id}</code> {move(m.status)}
            {m.assignee.from !== m.assignee.to && <> · assignee {move(m.assignee)}</>}
          </div>
        ))}
        {s.contractsChangedCount > s.contractsChanged.length && <div className="muted">and {s.contractsChangedCount - s.contractsChanged.length} more</div>}
      </li>
      {s.code.length > 0 && (
        <li data-testid="facts-code">
          <strong>{s.code.length}</strong> work {plural(s.code.length, "tree")}
          <CodeMoves team={s.team} moves={s.code} tense={tense} />
        </li>
      )}
      <li>
        <strong>{s.membersNotified}</strong> {plural(s.membersNotified, "member")} {verb(tense, "told", "will be told")}
      </li>
      {s.messagesRestored > 0 && (
        <li>
          <strong>{s.messagesRestored}</strong> archived messages {verb(tense, "back", "will be back")} in their inboxes
        </li>
      )}
    </ul>
  );
}
