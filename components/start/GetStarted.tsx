"use client";

import Link from "next/link";
import { useQuickStartDemo } from "@/lib/queries/graph.ts";

/**
 * The guided empty state (docs/canvas.md#empty-team): what an empty team offers in place of "nothing here".
 * The dialogs belong to the page that shows this, so a page has one contract form and one member form.
 */
export function GetStarted({
  team,
  onStartMember,
  onNewContract,
  onDemo,
}: {
  team: string;
  onStartMember: () => void;
  onNewContract: () => void;
  /** After the demo was made: the overview goes to the canvas, the canvas draws it where it is. */
  onDemo?: () => void;
}) {
  const demo = useQuickStartDemo(team, onDemo);
  return (
    <div className="get-started" data-testid="get-started">
      <p>
        Team <strong className="mono">{team}</strong> has no contracts or artifacts yet.
      </p>
      <div className="get-started-actions">
        <button type="button" onClick={onStartMember}>
          Start a team member
        </button>
        <button type="button" onClick={onNewContract}>
          Create a contract
        </button>
        <button type="button" className="primary" disabled={demo.isPending} onClick={() => demo.mutate()}>
          {demo.isPending ? "Running the demo…" : "Run the Quick Start demo"}
        </button>
      </div>
      <p className="hint muted">
        The demo makes the Quick Start&apos;s chain in this team: contracts setup-user-model → build-auth-api → write-auth-tests and the three artifacts that
        complete them, each derived from the one before. To let Claude Code work here, <Link href="/settings#claude-code">connect Claude Code to this hub</Link>
        .
      </p>
      {demo.error && (
        <p className="form-error" role="alert" data-testid="demo-error">
          {demo.error.message}
        </p>
      )}
    </div>
  );
}
