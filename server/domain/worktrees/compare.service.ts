/**
 * Two runs' code side by side (docs/worktrees.md#compare): the diff from one hub-made branch of a team to another —
 * typically a first run and its replay. A side whose work tree still exists is taken as its files now (uncommitted
 * work included), as the changes view does; a side without one is its branch tip.
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import type { WorktreeRow } from "../../db/rows.ts";
import { DomainError, notFound } from "../../errors.ts";
import type { CompareInput, CompareView } from "../../../lib/api/worktrees.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorizeWorktree, diffFiles, diffTarget } from "./changes.service.ts";

async function branchRow(s: Sql, team: string, branch: string, field: "a" | "b"): Promise<WorktreeRow> {
  const row = await s.get<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "teamId" = ${team} AND "branch" = ${branch} ORDER BY "id" DESC LIMIT 1`);
  if (!row) throw notFound(`work-tree branch of team '${team}'`, branch, field);
  return row;
}

export async function compareBranches(deps: DomainDeps, actor: Principal, input: CompareInput): Promise<CompareView> {
  const [a, b] = await deps.db.read(async (s) => {
    const a = await branchRow(s, input.team, input.a, "a");
    const b = await branchRow(s, input.team, input.b, "b");
    // Reading code is reading what a session did: the same right as its changes, for each side.
    await authorizeWorktree(s, actor, "session.read", a);
    await authorizeWorktree(s, actor, "session.read", b);
    return [a, b];
  });
  if (a.repoDir !== b.repoDir) {
    throw new DomainError(
      "invalid_input",
      `b: branch '${b.branch}' is in '${b.repoDir}', not in '${a.repoDir}' with '${a.branch}': only branches of one repository compare`,
      {
        field: "b",
        rule: "same_repository",
      },
    );
  }
  const [from, to] = await Promise.all([diffTarget(a), diffTarget(b)]);
  const files = await diffFiles(a.repoDir, from.to, to.to);
  const side = (w: WorktreeRow, t: typeof from) => ({ branch: w.branch, session: w.session, head: t.head, uncommitted: t.uncommitted });
  return {
    team: input.team,
    repoDir: a.repoDir,
    a: side(a, from),
    b: side(b, to),
    files,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
  };
}
