/**
 * Team reset (docs/domain.md#team-reset): clears the team for a fresh run without losing anything for good. One
 * transaction: an automatic `pre-reset` snapshot first, then messages and artifacts are
 * archived under that snapshot's id (versions marked rolled_back, never deleted; preserved
 * artifacts untouched), and contracts, roster, pipelines, gate counters and team knowledge are emptied through
 * the same restore path a rollback uses. Rolling back to the snapshot brings it all back.
 */
import type { ResetSummary, TeamResetInput } from "../../../lib/api/gate.ts";
import { invalid } from "../../errors.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { EMPTY_COORDINATION, restoreCoordination } from "../snapshots/restore.ts";
import { writeSnapshot } from "../snapshots/snapshot-store.ts";
import { captureState } from "../snapshots/state.ts";
import { captureCode, teamWorkTrees } from "../snapshots/code.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { inList, sql } from "../../db/sql.ts";
import type { ArtifactRow } from "../../db/rows.ts";

/**
 * The team's work trees are checkpointed first, as for a manual snapshot (git cannot run inside the transaction), after
 * the right is checked so that a refused reset pins nothing; their files are not touched: a reset clears coordination,
 * not code, and rolling back to the `pre-reset` snapshot restores the files it recorded (docs/worktrees.md).
 */
export async function teamReset(deps: DomainDeps, actor: Principal, input: TeamResetInput): Promise<ResetSummary> {
  const rows = await deps.db.read(async (s) => {
    await authorize(s, actor, "team.reset", { team: input.team });
    return teamWorkTrees(s, input.team);
  });
  const code = rows.length > 0 ? await captureCode(rows, "before team reset") : undefined;
  return deps.db.write("team.reset", actor.name, async (tx) => {
    const team = input.team;
    await authorize(tx, actor, "team.reset", { team });
    await ensureTeam(tx, team);
    const preserved = [...new Set(input.preserve_artifacts)];
    const keep = inList(preserved);
    const known = new Set(
      (await tx.all<Pick<ArtifactRow, "id">>(sql`SELECT "id" FROM "Artifact" WHERE "teamId" = ${team} AND "id" IN ${keep}`)).map((r) => r.id),
    );
    const unknown = input.preserve_artifacts.flatMap((id, i) =>
      known.has(id) ? [] : [{ field: `preserve_artifacts[${i}]`, rule: "exists", message: `artifact '${id}' does not exist in team '${team}'`, received: id }],
    );
    if (unknown.length) throw invalid(unknown);

    const before = await captureState(tx, team);
    const snapshot = await writeSnapshot(tx, actor, team, { kind: "pre-reset", label: "before team reset" }, code ? { ...before, code } : before);
    const messages = await tx.run(
      sql`UPDATE "Message" SET "archivedAt" = ${tx.now}, "archivedBy" = ${snapshot.id} WHERE "teamId" = ${team} AND "archivedAt" IS NULL`,
    );
    const versions = await tx.run(
      sql`UPDATE "ArtifactVersion" SET "status" = 'rolled_back' WHERE "status" = 'active'
         AND "artifactPk" IN (SELECT "pk" FROM "Artifact" WHERE "teamId" = ${team} AND "id" NOT IN ${keep})`,
    );
    const artifacts = await tx.run(
      sql`UPDATE "Artifact" SET "archivedAt" = ${tx.now} WHERE "teamId" = ${team} AND "archivedAt" IS NULL AND "id" NOT IN ${keep}`,
    );
    await restoreCoordination(tx, team, EMPTY_COORDINATION, before, 0);

    const summary: ResetSummary = {
      team,
      snapshotId: snapshot.id,
      preserved,
      archived: { artifacts: artifacts.changes, versions: versions.changes, messages: messages.changes },
      removed: { contracts: snapshot.counts.contracts, members: snapshot.counts.members, pipelines: snapshot.counts.pipelines },
    };
    const { team: _team, ...payload } = summary;
    await tx.emit({ teamId: team, type: "team.reset", subject: `team:${team}`, payload });
    return summary;
  });
}
