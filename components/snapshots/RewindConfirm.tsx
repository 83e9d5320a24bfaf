"use client";

import { useRef, useState, type ReactNode } from "react";
import type { RewindPreview } from "@/lib/api/snapshots.ts";
import { DialogActions } from "../ui/DialogActions.tsx";
import { RewindFacts } from "./RewindFacts.tsx";

type Props = {
  label: string;
  what: "rollback" | "replay";
  /** What happens first, before the preview's facts. */
  intro: ReactNode;
  disabled?: boolean;
  /** The hub's preview (a dry run of the very command); a refusal rejects it and the caller shows why. */
  load: () => Promise<RewindPreview>;
  onConfirm: () => void;
};

/**
 * The confirmation of a rollback or replay: pressing the button asks the hub for a preview first,
 * and the dialog shows what will re-run, roll back, be removed and be brought back, counted and
 * listed, before the person confirms.
 */
export function RewindConfirm({ label, what, intro, disabled, load, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [loading, setLoading] = useState(false);
  const ask = async () => {
    setLoading(true);
    try {
      setPreview(await load());
      dialog.current?.showModal();
    } catch {
      // The caller's mutation holds the refusal and shows it, by field where it has one.
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <button type="button" className="danger" disabled={disabled || loading} onClick={() => void ask()} aria-busy={loading}>
        {loading ? "Checking…" : label}
      </button>
      <dialog ref={dialog} aria-label={label} className="rewind-dialog" data-testid={`${what}-preview`}>
        <p>{intro}</p>
        {preview && (
          <div className="rewind-preview">
            <h3>What will happen</h3>
            <RewindFacts summary={preview} tense="preview" what={what} />
          </div>
        )}
        <DialogActions dialog={dialog} label={label} danger onConfirm={onConfirm} />
      </dialog>
    </>
  );
}
