/** The home page's read model: what exists, what needs a person and what it cost, per team. */
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { permits } from "../auth/capabilities.ts";
import { ContractStatus } from "../../../lib/api/contracts.ts";
import type { Overview } from "../../../lib/api/overview.ts";
import { needsAttention } from "./attention.ts";
import { teamCosts } from "./costs.ts";
import { teamBudgets } from "../budgets/budgets.repo.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow, TeamRow } from "../../db/rows.ts";

export async function overview({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<Overview> {
  return db.read(async (s) => {
    const teams = await s.all<Pick<TeamRow, "id" | "archivedAt"> & { artifacts: number; contracts: number; events: number }>(
      sql`SELECT t."id", t."archivedAt",
         (SELECT COUNT(*) FROM "Artifact" a WHERE a."teamId" = t."id" AND a."archivedAt" IS NULL) AS "artifacts",
         (SELECT COUNT(*) FROM "Contract" c WHERE c."teamId" = t."id") AS "contracts",
         (SELECT COUNT(*) FROM "Event" e WHERE e."teamId" = t."id") AS "events"
       FROM "Team" t ORDER BY t."id"`,
    );
    const counts = await s.all<Pick<ContractRow, "status"> & { n: number }>(
      sql`SELECT "status", COUNT(*) AS "n" FROM "Contract" WHERE "teamId" = ${input.team} GROUP BY "status"`,
    );
    const contractsByStatus: Overview["contractsByStatus"] = { pending: 0, ready: 0, in_progress: 0, completed: 0, failed: 0 };
    for (const c of counts) contractsByStatus[ContractStatus.parse(c.status)] = c.n;
    // Attention and costs both show budgets; each budget's figures cost queries, so they are worked out once.
    const budgets = await teamBudgets(s, input.team, new Date());
    return {
      teams: teams.map((t) => ({ id: t.id, archived: t.archivedAt !== null, artifacts: t.artifacts, contracts: t.contracts, events: t.events })),
      team: input.team,
      contractsByStatus,
      attention: await needsAttention(s, input.team, await permits(s, actor, "approval.decide", { team: input.team }), budgets),
      costs: await teamCosts(s, input.team, budgets),
    };
  });
}
