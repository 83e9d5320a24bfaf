"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { problemKindOf } from "@/lib/problem-kind.ts";
import { useSession, useSessionHistory } from "@/lib/queries/sessions.ts";
import { changesQuery } from "@/lib/queries/worktrees.ts";
import { ChangesTab } from "../code/ChangesTab.tsx";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { ApprovalCards } from "./ApprovalCards.tsx";
import { HistoryPanel } from "./HistoryPanel.tsx";
import { SendBox } from "./SendBox.tsx";
import { SessionHeader } from "./SessionHeader.tsx";
import { Transcript } from "./Transcript.tsx";
import { WorktreePanel } from "./WorktreePanel.tsx";

export type SessionTab = "transcript" | "changes";

/** The turn Retry sends again: the last one (past interrupted or withdrawn ones), when it failed and the session says so. */
function retryableTurn(problem: string | null, interactions: InteractionView[]): number | null {
  if (problemKindOf(problem) !== "turn_failed") return null;
  const last = [...interactions].sort((a, b) => b.n - a.n).find((i) => i.status !== "interrupted" && i.status !== "cancelled");
  return last?.status === "error" ? last.id : null;
}

/** Transcript, and Changes for a session with a work tree: links, so a tab can be shared and opened from elsewhere. */
function Tabs({ name, tab }: { name: string; tab: SessionTab }) {
  const base = `/sessions/${encodeURIComponent(name)}`;
  return (
    <nav className="tabs" aria-label="Session views">
      <Link href={base} aria-current={tab === "transcript" ? "page" : undefined}>
        Transcript
      </Link>
      <Link href={`${base}?tab=changes`} aria-current={tab === "changes" ? "page" : undefined}>
        Changes
      </Link>
    </nav>
  );
}

/**
 * One session: its state and controls, pending approvals, the live transcript, a send box and its history;
 * with a work tree, its ports, setup and run command, and its changes (`tab`, `at`: a commit an artifact version recorded).
 */
export function SessionDetailPage({ name, tab = "transcript", at }: { name: string; tab?: SessionTab; at?: string }) {
  const { team, setTeam } = useTeam();
  const session = useSession(team, name);
  const history = useSessionHistory(team, name);
  // Opened on the Changes tab, the diff (the slow part) is asked for beside the session, not after it.
  useQuery({ ...changesQuery(team, name, at), enabled: tab === "changes" });
  const s = session.data;

  // A link to a session of another team switches the dashboard to that team, so live updates
  // (which invalidate the followed team's queries) reach this page.
  useEffect(() => {
    if (s && s.team !== team) setTeam(s.team);
  }, [s, team, setTeam]);

  if (!s) {
    return (
      <div className="stack">
        <p>
          <Link href="/sessions">← Sessions</Link>
        </p>
        <ListState loading={session.isLoading} error={session.error} empty={false} hint="" />
      </div>
    );
  }
  const interactions = history.data?.interactions ?? [];
  return (
    <div className="stack">
      <p className="crumbs">
        <Link href="/sessions">← Sessions</Link>
      </p>
      <SessionHeader session={s} />
      <ApprovalCards team={s.team} approvals={s.approvals} />
      {s.worktree?.path && <WorktreePanel session={s} />}
      {s.worktree && <Tabs name={name} tab={tab} />}
      {!s.worktree && tab === "changes" && (
        <p className="notice" role="status">
          This session has no work tree (it shares its work dir, or its work tree was discarded): no changes to show.
        </p>
      )}
      {s.worktree && tab === "changes" ? (
        <Card title="Changes" testId="changes-card" wide>
          <ChangesTab session={s} at={at} />
        </Card>
      ) : (
        <div className="session-layout">
          <Card title="Transcript" testId="transcript-card">
            <Transcript
              name={name}
              team={s.team}
              interactions={interactions}
              session={{
                status: s.status,
                running: s.running,
                roots: [s.workDir, ...(s.worktree?.path ? [s.worktree.path] : [])],
                retryable: retryableTurn(s.problem, interactions),
              }}
            />
            <SendBox team={s.team} name={name} status={s.status} />
          </Card>
          <div className="stack">
            <Card title="History" testId="history-card">
              <ListState loading={history.isLoading} error={history.error} empty={interactions.length === 0} hint="No turns yet." />
              {interactions.length > 0 && <HistoryPanel interactions={interactions} />}
            </Card>
            <Card title="Safety violations" testId="violations">
              {s.violations.length === 0 ? (
                <p className="empty">None.</p>
              ) : (
                <ul className="plain">
                  {s.violations.map((v) => (
                    <li key={v.id}>
                      <strong>{v.kind.replace("_", " ")}</strong> {v.detail}{" "}
                      <span className="muted">
                        · <When at={v.at} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
        </div>
      )}
    </div>
  );
}
