"use client";

import { CURRENT, type RewindSummary, type SnapshotMeta } from "@/lib/api/snapshots.ts";
import { useSnapshotActions } from "@/lib/queries/snapshots.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";
import { When } from "../ui/When.tsx";
import { RewindConfirm } from "./RewindConfirm.tsx";

const kib = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);
const counts = (c: SnapshotMeta["counts"]) => `${c.contracts} contracts · ${c.artifacts} artifacts · ${c.pipelines} pipelines · ${c.members} members`;

type Column = "id" | "taken" | "size";

const valueOf = (s: SnapshotMeta, key: Column): SortValue => (key === "id" ? s.id : key === "taken" ? s.createdAt.getTime() : s.size);

type Props = {
  team: string;
  items: SnapshotMeta[];
  onCompare: (a: string, b: string) => void;
  onReplay: (id: string) => void;
  onRolledBack: (s: RewindSummary) => void;
};

/** Snapshots, newest first, each with compare, replay, rollback (previewed and asked first) and delete. */
export function SnapshotTable({ team, items, onCompare, onReplay, onRolledBack }: Props) {
  const { rollback, previewRollback, remove } = useSnapshotActions(team);
  const error = rollback.error ?? previewRollback.error ?? remove.error;
  const { rows, header } = useSort<SnapshotMeta, Column>(items, valueOf);
  return (
    <>
      {error && <p className="form-error">{error.message}</p>}
      <table className="sortable stack-on-phone">
        <thead>
          <tr>
            {header("Snapshot", "id")}
            {header("Taken", "taken", true)}
            {header("Contains", "size", true)}
            <th aria-label="actions" />
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id} data-testid={`snapshot-${s.id}`}>
              <td>
                <div className="mono">{s.id}</div>
                <div>
                  {s.label || <span className="muted">no label</span>} {s.kind !== "manual" && <span className="badge snapshot-kind">{s.kind}</span>}
                </div>
              </td>
              <td className="muted">
                <When at={s.createdAt} /> by {s.createdBy}
              </td>
              <td className="muted">
                {counts(s.counts)} <span title="compressed size">({kib(s.size)})</span>
              </td>
              <td className="actions">
                <div className="row">
                  <button type="button" onClick={() => onCompare(s.id, CURRENT)} aria-label={`compare ${s.id} with the current state`}>
                    Diff
                  </button>
                  <button type="button" onClick={() => onReplay(s.id)} aria-label={`replay ${s.id}`}>
                    Replay…
                  </button>
                  <RewindConfirm
                    label="Rollback"
                    what="rollback"
                    disabled={rollback.isPending}
                    intro={
                      <>
                        Roll the team back to <code>{s.id}</code>? The hub first snapshots the current state (a <code>pre-rollback-…</code> snapshot: roll back
                        to it to undo). Versions rolled back are kept, readable by number.
                      </>
                    }
                    load={() => previewRollback.mutateAsync(s.id)}
                    onConfirm={() => rollback.mutate(s.id, { onSuccess: onRolledBack })}
                  />
                  <ConfirmButton
                    label="Delete"
                    disabled={remove.isPending}
                    question={
                      <>
                        Delete snapshot <code>{s.id}</code>? The team&apos;s state is not touched; only this saved point goes.
                      </>
                    }
                    onConfirm={() => remove.mutate(s.id)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
