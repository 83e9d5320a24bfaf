"use client";

import { useEffect, useRef } from "react";
import { SpawnForm } from "../sessions/SpawnForm.tsx";

/** The sessions page's start form in a dialog, as a team member: what an empty team's "Start a team member" opens. */
export function StartMemberDialog({ team, open, onClose }: { team: string; open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-label="start a team member" data-testid="start-member" onClose={onClose}>
      <h2 className="page-title">Start a team member in {team}</h2>
      {/* Mounted while open only: each opening starts from an empty form. */}
      {open && <SpawnForm team={team} member />}
      <div className="row">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
