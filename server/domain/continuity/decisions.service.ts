/**
 * The decision journal (docs/domain.md#continuity): what was decided, why, and what else was considered, per team.
 * Entries are append-only and their author is always the caller. Related artifacts and
 * contracts must exist when the decision is recorded, so every link in the journal resolves.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import { invalid, type Issue } from "../../errors.ts";
import type { DecisionPage, DecisionView, ListDecisionsInput, RecordDecisionInput } from "../../../lib/api/continuity.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";

type DecisionRow = {
  id: number;
  teamId: string;
  title: string;
  decision: string;
  rationale: string;
  alternatives: string;
  related: string;
  author: string;
  createdAt: Date;
};

const Related = z.object({ artifacts: z.array(z.string()).default([]), contracts: z.array(z.string()).default([]) });

export const toDecisionView = (r: DecisionRow): DecisionView => ({
  id: r.id,
  team: r.teamId,
  title: r.title,
  decision: r.decision,
  rationale: r.rationale,
  alternatives: z.array(z.string()).parse(JSON.parse(r.alternatives)),
  related: Related.parse(JSON.parse(r.related)),
  author: r.author,
  createdAt: r.createdAt,
});

async function missingLinks(sql: Sql, team: string, related: RecordDecisionInput["related"]): Promise<Issue[]> {
  const issues: Issue[] = [];
  const check = async (field: "artifacts" | "contracts", table: "Artifact" | "Contract", what: string) => {
    for (const [i, id] of (related?.[field] ?? []).entries()) {
      if (!(await sql.get(`SELECT 1 FROM "${table}" WHERE "teamId" = ? AND "id" = ?`, [team, id]))) {
        issues.push({ field: `related.${field}[${i}]`, rule: "exists", message: `${what} '${id}' does not exist in team '${team}'`, received: id });
      }
    }
  };
  await check("artifacts", "Artifact", "artifact");
  await check("contracts", "Contract", "contract");
  return issues;
}

export async function recordDecision({ db }: DomainDeps, actor: Principal, input: RecordDecisionInput): Promise<DecisionView> {
  return db.write("decision.record", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    const issues = await missingLinks(tx, input.team, input.related);
    if (issues.length) throw invalid(issues);
    const related = { artifacts: input.related?.artifacts ?? [], contracts: input.related?.contracts ?? [] };
    const row = await tx.get<DecisionRow>(
      `INSERT INTO "Decision" ("teamId","title","decision","rationale","alternatives","related","author","createdAt") VALUES (?,?,?,?,?,?,?,?) RETURNING *`,
      [input.team, input.title, input.decision, input.rationale ?? "", JSON.stringify(input.alternatives ?? []), JSON.stringify(related), actor.name, tx.now],
    );
    const view = toDecisionView(row!);
    await tx.emit({
      teamId: input.team,
      type: "decision.recorded",
      subject: `decision:${view.id}`,
      payload: { id: view.id, title: view.title, author: view.author, related },
    });
    return view;
  });
}

/** Newest first; `since` keeps those recorded at or after that time, `after` those after that id. */
export async function listDecisions({ db }: DomainDeps, input: ListDecisionsInput): Promise<DecisionPage> {
  const where = [`"teamId" = ?`];
  const params: (string | number | Date)[] = [input.team];
  if (input.since !== undefined) {
    where.push(`"createdAt" >= ?`);
    params.push(new Date(input.since));
  }
  if (input.after !== undefined) {
    where.push(`"id" > ?`);
    params.push(input.after);
  }
  if (input.artifact) {
    where.push(`EXISTS (SELECT 1 FROM ${db.dialect.jsonArray(`"related"`, "artifacts")} WHERE "value" = ?)`);
    params.push(input.artifact);
  }
  if (input.contract) {
    where.push(`EXISTS (SELECT 1 FROM ${db.dialect.jsonArray(`"related"`, "contracts")} WHERE "value" = ?)`);
    params.push(input.contract);
  }
  if (input.cursor !== undefined) {
    where.push(`"id" < ?`);
    params.push(input.cursor);
  }
  const rows = await db.read((sql) =>
    sql.all<DecisionRow>(`SELECT * FROM "Decision" WHERE ${where.join(" AND ")} ORDER BY "id" DESC LIMIT ?`, [...params, input.limit + 1]),
  );
  const page = rows.slice(0, input.limit);
  return { items: page.map(toDecisionView), nextCursor: rows.length > input.limit ? page[page.length - 1].id : null };
}
