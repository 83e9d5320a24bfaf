"use client";

import type { SessionView } from "@/lib/api/sessions.ts";
import { useChanges } from "@/lib/queries/worktrees.ts";
import { ListState } from "../ui/Card.tsx";
import { Counts, FileDiffs } from "./FileDiffs.tsx";

/** A session's work against its base (docs/worktrees.md#changes): now, or up to a commit an artifact version recorded. */
export function ChangesTab({ session, at }: { session: SessionView; at?: string }) {
  const changes = useChanges(session.team, session.name, at);
  const c = changes.data;
  if (!c) return <ListState loading={changes.isLoading} error={changes.error} empty={false} hint="" />;
  return (
    <div className="stack">
      <p className="muted">
        <code>{c.worktree.branch}</code> against <code>{c.worktree.baseBranch ?? c.worktree.baseCommit.slice(0, 12)}</code>
        {at ? (
          <>
            {" "}
            up to <code>{at.slice(0, 12)}</code>
          </>
        ) : c.uncommitted ? (
          " (the work tree's files now)"
        ) : null}{" "}
        · <Counts additions={c.additions} deletions={c.deletions} />
      </p>
      <FileDiffs files={c.files} label={`changes of ${session.name}`} />
    </div>
  );
}
