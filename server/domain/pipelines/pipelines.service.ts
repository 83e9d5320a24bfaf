/**
 * Pipelines (docs/domain.md#pipelines): creating, listing, pausing, resuming, deleting, dry runs, and the execution
 * log. Execution itself is the runner's job (runner.ts), after commit.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import { jsonColumn, jsonColumnOrNull, type EventRow, type PipelineExecutionRow, type PipelineRow } from "../../db/rows.ts";
import { conflict, invalidField, notFound, type Issue } from "../../errors.ts";
import type { HubEvent } from "../../events/types.ts";
import { EntityId } from "../../../lib/ids.ts";
import { LoggedEvent } from "../../../lib/api/events.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import {
  PipelineView,
  Rule,
  scopeOf,
  type CreatePipelineInput,
  type DryRunInput,
  type DryRunResult,
  type PipelineDetail,
  type PipelineLogInput,
  type PipelineRefInput,
  type PipelineValidation,
  type SampleEvent,
  type TriggerType,
  type UpdatePipelineInput,
  type ValidatePipelineInput,
} from "../../../lib/api/pipelines.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize, type Operation } from "../auth/capabilities.ts";
import { eventFor } from "../auth/visibility.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { toHubEvent } from "../events/events.service.ts";
import { zodIssues } from "../zod-errors.ts";
import { EvaluationFailure, evaluateCondition, toCel } from "./expressions.ts";
import { assertRules, renderedAction, unparsedRulesIssues } from "./rules.ts";
import { contextFor, eventVars, firesOn, passesFilters, stateVars, type EventContext } from "./triggers.ts";

const Rules = z.array(Rule);

export const parseRules = (row: Pick<PipelineRow, "rules">) => jsonColumn(Rules, row.rules);

async function loadPipeline(s: Sql, team: string, id: string): Promise<PipelineRow> {
  const row = await s.get<PipelineRow>(sql`SELECT * FROM "Pipeline" WHERE "teamId" = ${team} AND "id" = ${id}`);
  if (!row) throw notFound("pipeline", id, "id");
  return row;
}

/** The pipeline `actor` means to change, refused unless the capability lets it: the creator is the pipeline's owner. */
async function ownPipeline(tx: WriteTx, actor: Principal, capability: Operation, input: PipelineRefInput): Promise<PipelineRow> {
  await ensureTeam(tx, input.team);
  const row = await loadPipeline(tx, input.team, input.id);
  await authorize(tx, actor, capability, { team: input.team, owners: [row.createdBy], label: `'${input.id}'` });
  return row;
}

const exists = async (s: Sql, team: string, id: string) => (await s.get(sql`SELECT 1 FROM "Pipeline" WHERE "teamId" = ${team} AND "id" = ${id}`)) !== undefined;
const taken = (team: string, id: string) => `pipeline '${id}' already exists in team '${team}'`;

async function counts(s: Sql, pk: number): Promise<Record<string, number>> {
  const rows = await s.all<Pick<PipelineExecutionRow, "outcome"> & { n: number }>(
    sql`SELECT "outcome", COUNT(*) AS "n" FROM "PipelineExecution" WHERE "pipelinePk" = ${pk} GROUP BY "outcome"`,
  );
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
}

const toView = (row: PipelineRow, executions: Record<string, number>): PipelineView => ({
  id: row.id,
  team: row.teamId,
  status: PipelineView.shape.status.parse(row.status),
  rules: parseRules(row),
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  executions,
});

const triggersOf = (rules: Rule[]) => [...new Set(rules.map((r) => r.trigger.type))].join(" ");
/** The newest event in the log (0 when empty): where a pipeline starts, and where an idle runner stands. */
export const lastEventId = async (s: Sql) => (await s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`))!.id;

export async function createPipeline({ db }: DomainDeps, actor: Principal, input: CreatePipelineInput): Promise<PipelineView> {
  assertRules(input.rules);
  return db.write("pipeline.create", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    if (await exists(tx, input.team, input.id)) throw conflict(taken(input.team, input.id), { field: "id" });
    const from = await lastEventId(tx);
    const triggers = triggersOf(input.rules);
    await tx.run(
      sql`INSERT INTO "Pipeline" ("teamId","id","status","rules","triggers","createdBy","fromEventId","createdAt","updatedAt") VALUES (${input.team},${input.id},${input.status},${JSON.stringify(input.rules)},${triggers},${actor.name},${from},${tx.now},${tx.now})`,
    );
    await tx.emit({
      teamId: input.team,
      type: "pipeline.created",
      subject: `pipeline:${input.id}`,
      payload: { id: input.id, status: input.status, rules: input.rules.length, triggers },
    });
    return toView(await loadPipeline(tx, input.team, input.id), {});
  });
}

/**
 * Replaces the rules, checked exactly as on create (docs/domain.md#editing-a-pipeline). The new rules concern only
 * events after the edit: rule indexes are the runner's exactly-once key, so an old event must never meet a rule it
 * was not judged by (a catch-up after a restart would otherwise run the new rules over the pipeline's whole past).
 */
export async function updatePipeline({ db }: DomainDeps, actor: Principal, input: UpdatePipelineInput): Promise<PipelineView> {
  assertRules(input.rules);
  return db.write("pipeline.update", actor.name, async (tx) => {
    const row = await ownPipeline(tx, actor, "pipeline.update", input);
    const triggers = triggersOf(input.rules);
    const rules = JSON.stringify(input.rules);
    const from = await lastEventId(tx);
    await tx.run(
      sql`UPDATE "Pipeline" SET "rules" = ${rules}, "triggers" = ${triggers}, "fromEventId" = ${from}, "updatedAt" = ${tx.now} WHERE "pk" = ${row.pk}`,
    );
    await tx.emit({
      teamId: input.team,
      type: "pipeline.updated",
      subject: `pipeline:${input.id}`,
      payload: { id: input.id, rules: input.rules.length, triggers, previousRules: parseRules(row) },
    });
    return toView({ ...row, rules, triggers, fromEventId: from, updatedAt: tx.now }, await counts(tx, row.pk));
  });
}

/**
 * What creating this pipeline would refuse, field by field, without writing anything: the same
 * schema and checks as createPipeline, for editors that validate while a person types.
 */
export async function validatePipeline({ db }: DomainDeps, input: ValidatePipelineInput): Promise<PipelineValidation> {
  const issues: Issue[] = [];
  if (input.id !== undefined) {
    const id = EntityId.safeParse(input.id, { reportInput: true });
    if (!id.success) issues.push(...zodIssues(id.error, "id"));
    else if (await db.read((s) => exists(s, input.team, id.data))) issues.push({ field: "id", rule: "unique", message: taken(input.team, id.data) });
  }
  issues.push(...unparsedRulesIssues(input.rules));
  return { valid: issues.length === 0, issues };
}

export async function listPipelines({ db }: DomainDeps, input: { team: string }): Promise<PipelineView[]> {
  return db.read(async (s) => {
    const rows = await s.all<PipelineRow>(sql`SELECT * FROM "Pipeline" WHERE "teamId" = ${input.team} ORDER BY "id"`);
    return Promise.all(rows.map(async (r) => toView(r, await counts(s, r.pk))));
  });
}

/** The pipeline and its execution log, newest first. */
export async function getPipeline({ db }: DomainDeps, input: PipelineLogInput): Promise<PipelineDetail> {
  return db.read(async (s) => {
    const row = await loadPipeline(s, input.team, input.id);
    const rules = parseRules(row);
    // Left joined: an event gone from the log leaves its executions without a type or subject.
    const log = await s.all<PipelineExecutionRow & { eventType: EventRow["type"] | null; eventSubject: EventRow["subject"] | null }>(
      sql`SELECT x.*, x."ruleIndex", e."type" AS "eventType", e."subject" AS "eventSubject" FROM "PipelineExecution" x LEFT JOIN "Event" e ON e."id" = x."eventId"
       WHERE x."pipelinePk" = ${row.pk} ${input.cursor !== undefined ? sql`AND x."id" < ${input.cursor}` : EMPTY} ORDER BY x."id" DESC LIMIT ${input.limit + 1}`,
    );
    const page = log.slice(0, input.limit);
    return {
      ...toView(row, await counts(s, row.pk)),
      log: page.map((x) => ({
        id: x.id,
        pipeline: row.id,
        rule: x.ruleIndex,
        ruleName: rules[x.ruleIndex]?.name ?? null,
        eventId: x.eventId,
        eventType: x.eventType,
        eventSubject: x.eventSubject,
        conditionResult: x.conditionResult === null ? null : x.conditionResult === 1,
        action: x.action,
        outcome: x.outcome,
        detail: jsonColumnOrNull(JsonObject, x.detail),
        error: x.error,
        durationMs: x.durationMs,
        at: x.at,
      })),
      nextCursor: log.length > input.limit ? page[page.length - 1].id : null,
    };
  });
}

async function setStatus({ db }: DomainDeps, actor: Principal, input: PipelineRefInput, status: "active" | "paused"): Promise<PipelineView> {
  return db.write(`pipeline.${status === "active" ? "resume" : "pause"}`, actor.name, async (tx) => {
    const row = await ownPipeline(tx, actor, status === "active" ? "pipeline.resume" : "pipeline.pause", input);
    if (row.status === status) throw invalidField("id", "status", `pipeline '${input.id}' is already ${status}`);
    await tx.run(sql`UPDATE "Pipeline" SET "status" = ${status}, "updatedAt" = ${tx.now} WHERE "pk" = ${row.pk}`);
    await tx.emit({
      teamId: input.team,
      type: status === "active" ? "pipeline.resumed" : "pipeline.paused",
      subject: `pipeline:${input.id}`,
      payload: { id: input.id },
    });
    return toView({ ...row, status, updatedAt: tx.now }, await counts(tx, row.pk));
  });
}

export const pausePipeline = (deps: DomainDeps, actor: Principal, input: PipelineRefInput) => setStatus(deps, actor, input, "paused");
export const resumePipeline = (deps: DomainDeps, actor: Principal, input: PipelineRefInput) => setStatus(deps, actor, input, "active");

/** Removes the pipeline; its execution log stays (restoring it from a snapshot reattaches the log). */
export async function deletePipeline({ db }: DomainDeps, actor: Principal, input: PipelineRefInput): Promise<{ deleted: string }> {
  return db.write("pipeline.delete", actor.name, async (tx) => {
    const row = await ownPipeline(tx, actor, "pipeline.delete", input);
    await tx.run(sql`DELETE FROM "Pipeline" WHERE "pk" = ${row.pk}`);
    await tx.emit({ teamId: input.team, type: "pipeline.deleted", subject: `pipeline:${input.id}`, payload: { id: input.id } });
    return { deleted: input.id };
  });
}

/**
 * What a rule would do for a logged event or a sample one; nothing is written. A logged event the caller may not
 * see (a private message between others) is not found: its text would otherwise come back in the rendered action.
 */
export async function dryRun({ db }: DomainDeps, actor: Principal, input: DryRunInput): Promise<DryRunResult> {
  assertRules([input.rule]);
  const rule = input.rule;
  return db.read(async (s) => {
    let event: HubEvent;
    let ctx: EventContext | null;
    if (input.eventId !== undefined) {
      const row = await s.get<EventRow>(sql`SELECT * FROM "Event" WHERE "id" = ${input.eventId} AND "teamId" = ${input.team}`);
      const visible = row && eventFor(actor, toHubEvent(row));
      if (!visible) throw notFound("event", String(input.eventId), "eventId");
      event = visible;
      ctx = firesOn(rule.trigger, event) ? await contextFor(s, event, rule.trigger.type, true) : null;
    } else {
      const sample = input.event!;
      // The input schema checked the payload against the catalog; this gives it the event's type.
      event = LoggedEvent.parse({
        id: 0,
        teamId: input.team,
        type: sample.type,
        subject: sample.subject,
        payload: sample.payload,
        principal: sample.principal,
        causedBy: null,
        depth: sample.depth,
        at: new Date(),
      });
      ctx = firesOn(rule.trigger, event) ? sampleContext(event, sample, rule.trigger.type) : null;
    }
    if (!ctx)
      return { triggerMatched: false, reason: `a ${rule.trigger.type} trigger does not fire on a ${event.type} event`, conditionResult: null, action: null };
    if (!passesFilters(rule.trigger, ctx))
      return { triggerMatched: false, reason: "the trigger's filters do not accept this event", conditionResult: null, action: null };
    let conditionResult: boolean | null = null;
    if (rule.condition !== undefined) {
      try {
        conditionResult = evaluateCondition(rule.condition, ctx.scope, ctx.vars);
      } catch (e) {
        if (!(e instanceof EvaluationFailure)) throw e;
        return { triggerMatched: true, conditionResult: null, conditionError: e.message, action: null };
      }
      if (!conditionResult) return { triggerMatched: true, conditionResult, action: null };
    }
    try {
      return { triggerMatched: true, conditionResult, action: renderedAction(rule.action, ctx) };
    } catch (e) {
      return { triggerMatched: true, conditionResult, action: null, actionError: (e as Error).message };
    }
  });
}

/**
 * Variables for a sample event, taken from its payload (and data) instead of the database. The sample's
 * payload may say more than the event would (a contract's title, an artifact's type): what the row would.
 */
function sampleContext(e: HubEvent, { payload: p, data }: SampleEvent, trigger: TriggerType): EventContext {
  const str = (v: unknown, fallback = "") => (v === undefined || v === null ? fallback : String(v));
  const event = eventVars(e);
  const scope = scopeOf(trigger);
  if (scope === "artifact") {
    const artifact = {
      id: str(p.artifactId),
      type: str(p.type),
      name: str(p.name, str(p.artifactId)),
      version: BigInt(Number(p.version ?? 1)),
      publisher: str(p.publisher, e.principal),
      contractId: p.contractId ?? null,
      summary: str(p.summary),
    };
    return {
      scope,
      vars: { event, artifact, data: data === undefined ? null : toCel(data) },
      subject: { id: artifact.id, type: artifact.type, by: artifact.publisher },
    };
  }
  if (scope === "contract") {
    const contract = {
      id: str(p.id),
      title: str(p.title),
      status: str(p.to),
      assignee: str(p.assignee),
      assigner: str(p.assigner),
      priority: str(p.priority, "normal"),
      retryCount: BigInt(Number(p.retryCount ?? 0)),
      maxRetries: BigInt(Number(p.maxRetries ?? 3)),
      statusReason: p.reason ?? null,
      inputs: {},
    };
    return { scope, vars: { event, contract }, subject: { id: contract.id, by: e.principal } };
  }
  if (scope === "state") {
    const state = {
      ...stateVars({ id: Number(p.id ?? 0), member: str(p.member, e.principal), role: str(p.role), status: str(p.status), task: str(p.task), ref: str(p.ref) }),
      keyFindings: Array.isArray(p.keyFindings) ? p.keyFindings.map((f) => str(f)) : [],
      verification: str(p.verification),
    };
    return { scope, vars: { event, state }, subject: { id: state.member, by: state.member, role: state.role, status: state.status } };
  }
  const message = { id: BigInt(Number(p.messageId ?? 0)), from: str(p.from), to: str(p.to), kind: str(p.kind, "dm"), text: str(p.text) };
  return { scope, vars: { event, message }, subject: { id: str(p.messageId), by: message.from, to: message.to } };
}
