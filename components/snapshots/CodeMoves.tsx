import Link from "next/link";
import type { CodeMove, CodeState } from "@/lib/api/worktrees.ts";
import { changesAt, compareHref } from "../code/links.ts";
import { BranchName } from "../code/BranchName.tsx";

const ACTION: Record<CodeMove["action"], { done: string; will: string }> = {
  restored: { done: "files restored", will: "files will be restored" },
  branched: { done: "new branch", will: "will get a new branch" },
  switched: { done: "back on its earlier branch", will: "will switch back to its earlier branch" },
  unchanged: { done: "unchanged", will: "unchanged" },
  missing: { done: "missing: nothing done", will: "missing: nothing will be done" },
};

/**
 * What a rollback or replay does to each work tree the snapshot recorded. A replay that branched keeps the first run
 * on the old branch: the link compares the two runs' code.
 */
export function CodeMoves({ team, moves, tense }: { team: string; moves: CodeMove[]; tense: "preview" | "done" }) {
  return (
    <>
      {moves.map((m) => (
        <div key={m.session} className="code-move" data-testid={`code-move-${m.session}`}>
          <code>{m.session}</code> <span className={`code-action ${m.action}`}>{ACTION[m.action][tense === "done" ? "done" : "will"]}</span>{" "}
          {m.previousBranch ? (
            <>
              <BranchName name={m.previousBranch} /> → <BranchName name={m.branch} />
              {tense === "done" && (
                <>
                  {" "}
                  <Link href={compareHref(team, m.previousBranch, m.branch)} data-testid={`compare-${m.session}`}>
                    compare the runs
                  </Link>
                </>
              )}
            </>
          ) : (
            <BranchName name={m.branch} />
          )}{" "}
          <span className="muted mono">@ {m.commit.slice(0, 7)}</span>
        </div>
      ))}
    </>
  );
}

/** The work trees a snapshot recorded: each session's branch and the commit its files made then. */
export function RecordedCode({ code }: { code: CodeState[] }) {
  if (code.length === 0) return null;
  return (
    <div className="recorded-code" data-testid="recorded-code">
      <span className="muted">Work trees recorded ({code.length}): </span>
      {code.map((c, i) => (
        <span key={c.session}>
          {i > 0 && " · "}
          <code>{c.session}</code> <BranchName name={c.branch} />{" "}
          <Link href={changesAt(c.session, c.commit)} className="mono" title={`${c.session}'s changes up to ${c.commit}`}>
            {c.commit.slice(0, 7)}
          </Link>
          {c.checkpoint && <span className="muted"> checkpoint</span>}
        </span>
      ))}
    </div>
  );
}
