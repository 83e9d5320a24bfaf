"use client";

import { useState } from "react";
import { useOperatorToken } from "@/lib/queries/settings.ts";
import { CopyButton } from "../ui/CopyButton.tsx";

const mask = (t: string) => `${t.slice(0, 5)}${"•".repeat(24)}`;

/** The operator token from the hub's data directory: hidden until asked for, copyable either way. */
export function OperatorToken() {
  const token = useOperatorToken();
  const [shown, setShown] = useState(false);
  if (token.isLoading) return <p className="empty">Loading…</p>;
  if (token.error) {
    return (
      <p className="error" role="alert">
        {token.error.message}
        {(token.error as { status?: number }).status === 401 && " Paste a token into “Token of this browser” below."}
      </p>
    );
  }
  const t = token.data!;
  return (
    <div className="stack tight">
      <div className="row">
        <code className="secret" data-testid="operator-token">
          {shown ? t.token : mask(t.token)}
        </code>
        <button
          type="button"
          onClick={() => setShown(!shown)}
          aria-pressed={shown}
          aria-label={shown ? "hide the operator token" : "reveal the operator token"}
        >
          {shown ? "Hide" : "Reveal"}
        </button>
        <CopyButton text={t.token} label="operator token" />
      </div>
      <p className="hint muted">
        Stored in <code>{t.file}</code> (mode 0600); <code>npx teamhub token</code> prints it. It acts as <code>operator</code> with full powers: give members
        their own tokens instead.
      </p>
    </div>
  );
}
