"use client";

import type { RefObject } from "react";

/** The confirm and cancel buttons of a confirmation dialog: either closes it; confirming also acts. */
export function DialogActions({
  dialog,
  label,
  danger,
  onConfirm,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  label: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  return (
    <div className="row">
      <button
        type="button"
        className={danger ? "danger" : "primary"}
        onClick={() => {
          dialog.current?.close();
          onConfirm();
        }}
      >
        {label}
      </button>
      <button type="button" onClick={() => dialog.current?.close()}>
        Cancel
      </button>
    </div>
  );
}
