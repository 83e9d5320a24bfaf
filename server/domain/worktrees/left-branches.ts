/**
 * A team's hub-made branches that no session works on (docs/worktrees.md#left-branches): a replay's first run keeps
 * its branch while the session moves to a new one, and a deleted session's branch waits for a merge or a discard.
 * Their rows are the work trees with no session; merge, discard and compare take them by name.
 */
import { sql } from "../../db/sql.ts";
import type { LeftBranchesInput, LeftBranchesView } from "../../../lib/api/worktrees.ts";
import type { DomainDeps } from "../deps.ts";
import { resolveRef } from "./git.ts";
import type { WorktreeRow } from "../../db/rows.ts";

type Left = WorktreeRow & { sessionExists: number };

/** Names and commits only, as overlaps: anyone may ask; reading the code needs `session.read` (changes, compare). */
export async function leftBranches(deps: DomainDeps, input: LeftBranchesInput): Promise<LeftBranchesView> {
  const rows = await deps.db.read((s) =>
    s.all<Left>(
      sql`SELECT w.*, CASE WHEN EXISTS (SELECT 1 FROM "Session" s WHERE s."name" = w."session" AND s."teamId" = w."teamId") THEN 1 ELSE 0 END AS "sessionExists"
       FROM "Worktree" w WHERE w."teamId" = ${input.team} AND w."sessionPk" IS NULL ORDER BY w."id" DESC`,
    ),
  );
  // The tip is read from git, not kept: a branch deleted outside the hub shows as such instead of as its old commit.
  const branches = await Promise.all(
    rows.map(async (w) => ({
      branch: w.branch,
      session: w.session,
      sessionExists: w.sessionExists === 1,
      repoDir: w.repoDir,
      baseBranch: w.baseBranch,
      baseCommit: w.baseCommit,
      head: await resolveRef(w.repoDir, `refs/heads/${w.branch}`).catch(() => null),
      path: w.path,
      createdAt: w.createdAt,
    })),
  );
  return { team: input.team, branches };
}
