import Link from "next/link";
import type { CodeRef } from "@/lib/api/worktrees.ts";
import { changesAt } from "./links.ts";
import { BranchName } from "./BranchName.tsx";

/**
 * Where a version's code is: the publisher's branch, the short commit, whether it was a checkpoint of uncommitted work
 * or already committed, and a link to its diff against the session's base.
 */
export function CodeRefLink({ code }: { code: CodeRef }) {
  return (
    <span className="code-ref" data-testid="code-ref">
      <BranchName name={code.branch} />{" "}
      <Link href={changesAt(code.session, code.commit)} className="mono" title={`${code.session}'s changes up to ${code.commit}`}>
        {code.commit.slice(0, 7)}
      </Link>{" "}
      <span className="muted">{code.checkpoint ? "checkpoint" : "committed"}</span>
    </span>
  );
}
