/**
 * The authority a pipeline acts with (docs/security.md#capabilities): its creator's, looked up when each action runs, so a
 * pipeline can never do what its creator may not, and loses its powers with its creator's
 * (revoked tokens, a revoked lead grant).
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import type { PipelineRow, PrincipalRow } from "../../db/rows.ts";
import { forbidden } from "../../errors.ts";
import { hasLiveToken } from "../auth/tokens.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { PrincipalKind } from "../../../lib/api/tokens.ts";

export async function creatorOf(s: Sql, pipeline: Pick<PipelineRow, "id" | "createdBy">): Promise<Principal> {
  if (pipeline.createdBy === OPERATOR.name) return OPERATOR;
  const row = await s.get<Pick<PrincipalRow, "kind">>(sql`SELECT "kind" FROM "Principal" WHERE "name" = ${pipeline.createdBy}`);
  const refuse = (why: string) =>
    forbidden(`pipeline '${pipeline.id}' acts with the authority of its creator '${pipeline.createdBy}', who ${why}`, {
      rule: "creator_authority",
      operation: "pipeline.execute",
      principal: pipeline.createdBy,
    });
  if (!row) throw refuse("is not a known principal");
  if (row.kind === "operator") return { name: pipeline.createdBy, kind: "operator" };
  if (!(await hasLiveToken(s, pipeline.createdBy))) throw refuse("no longer holds a valid token");
  return { name: pipeline.createdBy, kind: PrincipalKind.parse(row.kind) };
}
