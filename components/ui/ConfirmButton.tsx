"use client";

import { useRef, type ReactNode } from "react";
import { DialogActions } from "./DialogActions.tsx";

/** A button that asks first, in a modal dialog, for actions that are hard to undo. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  danger,
  disabled,
}: {
  label: string;
  question: ReactNode;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={danger ? "danger" : undefined} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={label}>
        <p>{question}</p>
        <DialogActions dialog={dialog} label={label} danger={danger} onConfirm={onConfirm} />
      </dialog>
    </>
  );
}
