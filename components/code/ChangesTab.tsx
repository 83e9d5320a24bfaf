"use client";

import type { SessionView } from "@/lib/api/sessions.ts";
import { useChanges } from "@/lib/queries/worktrees.ts";
import { ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { Counts, FileDiffs } from "./FileDiffs.tsx";
import { useLineComments } from "./LineComments.tsx";
import { MergePanel } from "./MergePanel.tsx";

/**
 * A session's work against its base (docs/worktrees.md#the-changes-tab): now, or up to a commit an artifact version
 * recorded (`at`). Line numbers open review comments sent to the session; merge and discard act on the work now.
 * The query sits under the team's key, so each /ws event of the team (a turn that edits a file) reloads it.
 */
export function ChangesTab({ session, at }: { session: SessionView; at?: string }) {
  const changes = useChanges(session.team, session.name, at);
  const comments = useLineComments(session.team, session.name);
  const c = changes.data;
  if (!c) return <ListState loading={changes.isLoading} error={changes.error} empty={false} hint="" />;
  return (
    <div className="stack">
      <div className="changes-head">
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
        <span className="muted changes-refresh">
          {changes.isFetching ? (
            "Refreshing…"
          ) : (
            <>
              as of <When at={new Date(changes.dataUpdatedAt)} />
            </>
          )}{" "}
          <button type="button" onClick={() => void changes.refetch()} disabled={changes.isFetching}>
            Refresh
          </button>
        </span>
      </div>
      {changes.error && <p className="error">Could not refresh: {changes.error.message}</p>}
      {!at && <MergePanel session={session} />}
      {c.files.length > 0 && <p className="hint">Click a line number to comment on that line: the comment goes to the session as a message.</p>}
      <FileDiffs files={c.files} label={`changes of ${session.name}`} onLine={comments.onLine} widgetsFor={comments.widgetsFor} />
      {comments.bar}
    </div>
  );
}
