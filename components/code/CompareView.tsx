"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { CompareView as Compared } from "@/lib/api/worktrees.ts";
import { useSessions } from "@/lib/queries/sessions.ts";
import { useCompare, useLeftBranches } from "@/lib/queries/worktrees.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { Counts, FileDiffs } from "./FileDiffs.tsx";
import { changesAt, compareHref } from "./links.ts";
import { RunArtifacts } from "./RunArtifacts.tsx";
import { BranchName } from "./BranchName.tsx";

/** One side: its branch, its session, and whether it is the work tree's files now or the branch tip. */
function Side({ label, side }: { label: string; side: Compared["a"] }) {
  return (
    <div className="compare-side" data-testid={`compare-side-${label}`}>
      <span className="compare-label">{label}</span> <BranchName name={side.branch} />{" "}
      <span className="muted">
        by <Link href={changesAt(side.session)}>{side.session}</Link> @ <span className="mono">{side.head.slice(0, 7)}</span>
        {side.uncommitted ? " + uncommitted work" : ""}
      </span>
    </div>
  );
}

/**
 * Two runs' code (docs/worktrees.md#compare): the diff from branch a to branch b of the team's hub-made branches, e.g.
 * a run against its replay, beside the artifacts each run published. The branches are typed or picked from the
 * team's sessions' branches and the ones no session works on (a replay's first run, a deleted session's).
 */
export function CompareView({ team: teamFromUrl, a, b }: { team?: string; a: string; b: string }) {
  const shell = useTeam();
  const team = teamFromUrl ?? shell.team;
  const router = useRouter();
  const [draft, setDraft] = useState({ a, b });
  const compared = useCompare(team, a, b);
  const sessions = useSessions(team);
  const left = useLeftBranches(team);
  const branches = [
    ...new Set([a, b, ...(sessions.data ?? []).flatMap((s) => (s.worktree ? [s.worktree.branch] : [])), ...(left.data?.branches ?? []).map((l) => l.branch)]),
  ]
    .filter(Boolean)
    .sort();
  const leftBy = new Map((left.data?.branches ?? []).map((l) => [l.branch, `${l.session}'s, no session works on it`]));
  const go = (next: { a: string; b: string }) => router.replace(compareHref(team, next.a.trim(), next.b.trim()));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(draft);
  };
  const c = compared.data;
  return (
    <div className="stack">
      <h1 className="page-title">Compare code</h1>
      <form className="compare-pickers" onSubmit={submit} aria-label="branches to compare">
        {(["a", "b"] as const).map((k) => (
          <label key={k} className="field">
            <span>{k === "a" ? "a (from, e.g. the first run)" : "b (to, e.g. the replay)"}</span>
            <input
              name={k}
              list="compare-branches"
              value={draft[k]}
              onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
              placeholder={`teamhub/${team}/…`}
              spellCheck={false}
            />
          </label>
        ))}
        <datalist id="compare-branches">
          {branches.map((br) => (
            <option key={br} value={br} label={leftBy.get(br)} />
          ))}
        </datalist>
        <div className="row">
          <button type="submit" className="primary" disabled={!draft.a.trim() || !draft.b.trim()}>
            Compare
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft({ a: draft.b, b: draft.a });
              go({ a: draft.b, b: draft.a });
            }}
            disabled={!draft.a.trim() || !draft.b.trim()}
          >
            Swap
          </button>
        </div>
      </form>
      {a === "" || b === "" ? (
        <p className="empty">
          Pick two of the team&apos;s hub branches (<code>teamhub/{team}/…</code>): a run and its replay are <code>…/name</code> and{" "}
          <code>…/name-replay-1</code>. The snapshots page links each replay that branched.
        </p>
      ) : !c ? (
        <ListState loading={compared.isLoading} error={compared.error} empty={false} hint="" />
      ) : (
        <>
          <div className="compare-sides">
            <Side label="a" side={c.a} />
            <Side label="b" side={c.b} />
            <div className="muted">
              {c.files.length} file{c.files.length === 1 ? "" : "s"} differ · <Counts additions={c.additions} deletions={c.deletions} />
            </div>
          </div>
          <div className="compare-layout">
            <Card title="Code" testId="compare-code">
              <FileDiffs files={c.files} label={`${c.a.branch} compared with ${c.b.branch}`} />
            </Card>
            <Card title="Artifacts of each run" testId="compare-artifacts">
              <RunArtifacts team={team} sides={[c.a, c.b]} />
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
