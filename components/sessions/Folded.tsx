"use client";

import { useState } from "react";

/** Lines shown of a long tool output before "show all". */
export const FOLD_LINES = 30;

/** A tool's output: its first lines, the rest behind a button that says how much there is. */
export function Folded({ text, className }: { text: string; className: string }) {
  const [all, setAll] = useState(false);
  const lines = text.split("\n");
  const cut = !all && lines.length > FOLD_LINES;
  return (
    <>
      <pre className={className}>{cut ? lines.slice(0, FOLD_LINES).join("\n") : text}</pre>
      {cut && (
        <button type="button" className="ghost small" onClick={() => setAll(true)}>
          show all {lines.length} lines
        </button>
      )}
    </>
  );
}
