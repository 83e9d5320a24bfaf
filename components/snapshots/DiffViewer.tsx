"use client";

import { CURRENT, DIFF_KINDS, type SnapshotMeta } from "@/lib/api/snapshots.ts";
import { useSnapshotDiff } from "@/lib/queries/snapshots.ts";
import { ListState } from "../ui/Card.tsx";
import { countLine, DiffKind, NO_DIFFERENCES } from "./DiffKind.tsx";

export type DiffSides = { a: string | null; b: string };

const nameOf = (id: string, snapshots: SnapshotMeta[]) => {
  if (id === CURRENT) return "current state";
  const label = snapshots.find((s) => s.id === id)?.label;
  return label ? `${id} (${label})` : id;
};

function SideSelect({ label, value, snapshots, onChange }: { label: string; value: string; snapshots: SnapshotMeta[]; onChange: (id: string) => void }) {
  const known = value === CURRENT || snapshots.some((s) => s.id === value);
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {value === "" && <option value="">choose a snapshot</option>}
        <option value={CURRENT}>current state (live)</option>
        {!known && value !== "" && <option value={value}>{value}</option>}
        {snapshots.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label ? `${s.id} — ${s.label}` : s.id}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Two states of the team side by side: any two snapshots, or a snapshot and the current state
 * (which follows the live state as events arrive). Per kind: what was added, removed, changed.
 */
export function DiffViewer({
  team,
  sides,
  snapshots,
  onChange,
}: {
  team: string;
  sides: DiffSides;
  snapshots: SnapshotMeta[];
  onChange: (s: DiffSides) => void;
}) {
  const diff = useSnapshotDiff(team, sides.a, sides.b);
  const labels: [string, string] = [sides.a ? nameOf(sides.a, snapshots) : "A", nameOf(sides.b, snapshots)];
  const d = diff.data;
  return (
    <div className="stack" data-testid="snapshot-diff">
      <div className="row diff-sides">
        <SideSelect label="A (before)" value={sides.a ?? ""} snapshots={snapshots} onChange={(a) => onChange({ ...sides, a })} />
        <button type="button" className="ghost" aria-label="swap A and B" onClick={() => sides.a && onChange({ a: sides.b, b: sides.a })} disabled={!sides.a}>
          ⇄
        </button>
        <SideSelect label="B (after)" value={sides.b} snapshots={snapshots} onChange={(b) => onChange({ ...sides, b })} />
      </div>
      {sides.a === null ? (
        <p className="empty">Take a snapshot, then compare it with the current state or with another snapshot.</p>
      ) : (
        <ListState loading={diff.isLoading} error={diff.error} empty={false} hint="" />
      )}
      {d && sides.a !== null && (
        <>
          <p className="muted" data-testid="diff-overview">
            {DIFF_KINDS.map((k) => `${k}: ${countLine(d[k])}`).join(" · ")}
          </p>
          {DIFF_KINDS.every((k) => countLine(d[k]) === NO_DIFFERENCES) ? (
            <p className="empty">
              No differences between {labels[0]} and {labels[1]}.
            </p>
          ) : (
            <>
              <div className="diff-columns" aria-hidden="true">
                <span>A: {labels[0]}</span>
                <span>B: {labels[1]}</span>
              </div>
              {DIFF_KINDS.map((k) => (
                <DiffKind key={k} team={team} kind={k} diff={d[k]} labels={labels} />
              ))}
            </>
          )}
        </>
      )}
    </div>
  );
}
