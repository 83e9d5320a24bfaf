/**
 * Code in the lineage (docs/worktrees.md#code-in-the-lineage): the commit of the publisher's work tree, taken when a
 * session with a work tree publishes, and how a version's view shows it.
 */
import type { Sql } from "../../db/connection.ts";
import { inList, sql } from "../../db/sql.ts";
import type { ArtifactVersionRow, SessionRow } from "../../db/rows.ts";
import type { CodeRef, CodeState } from "../../../lib/api/worktrees.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { pinWorkTree } from "../worktrees/code-state.ts";
import { worktreeOfSession } from "../worktrees/worktrees.repo.ts";

/**
 * The publishing session's code now, pinned; null for a person, a shared session, or when git fails — a publish
 * never fails for want of a commit (the failure is logged, the version records no code).
 */
export async function publisherCode(deps: DomainDeps, actor: Principal): Promise<CodeState | null> {
  if (!actor.sessionId) return null;
  const session = actor.sessionId;
  const w = await deps.db.read(async (s) => {
    const row = await s.get<Pick<SessionRow, "pk">>(sql`SELECT "pk" FROM "Session" WHERE "name" = ${session}`);
    return row ? worktreeOfSession(s, row.pk) : undefined;
  });
  if (!w?.path) return null;
  return pinWorkTree(w, "at publish").catch((e: unknown) => {
    console.error(`[teamhub] the code of ${session}'s work tree at publish:`, e);
    return null;
  });
}

type CodeColumns = Pick<ArtifactVersionRow, "sessionId" | "codeCommit" | "codeBranch" | "codeCheckpoint">;

export function codeRefOf(v: CodeColumns): CodeRef | null {
  if (!v.codeCommit || !v.codeBranch || !v.sessionId) return null;
  return {
    session: v.sessionId,
    branch: v.codeBranch,
    commit: v.codeCommit,
    checkpoint: Boolean(v.codeCheckpoint),
    changes: `/api/sessions/${encodeURIComponent(v.sessionId)}/changes?at=${v.codeCommit}`,
  };
}

/** The code of each of these versions, by seq (audit's trail). */
export async function codeRefsOf(s: Sql, seqs: number[]): Promise<Map<number, CodeRef | null>> {
  if (seqs.length === 0) return new Map();
  const rows = await s.all<CodeColumns & Pick<ArtifactVersionRow, "seq">>(
    sql`SELECT "seq","sessionId","codeCommit","codeBranch","codeCheckpoint" FROM "ArtifactVersion" WHERE "seq" IN ${inList(seqs)}`,
  );
  return new Map(rows.map((r) => [r.seq, codeRefOf(r)]));
}
