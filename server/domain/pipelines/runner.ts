/**
 * The pipeline runner (docs/domain.md#pipelines). It reads the event log after a durable cursor, so nothing committed
 * is missed across restarts, and runs each fired rule exactly once per (rule, event): the
 * execution row is unique on that pair and commits in the same transaction as the action's
 * writes, so a crash either left both or neither. Events written by an action carry depth + 1;
 * at depth 10 the chain stops with a `loop_guard` entry.
 *
 * A slice of the log (at most SLICE_MS of work) is one transaction, which also moves the cursor past it: each fired
 * rule runs in a part of it of its own (`tx.part`, a savepoint), as the pipeline's creator, so a failing action undoes
 * only itself, and a commit is paid per slice rather than per rule (docs/performance.md#pipelines).
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { multiRowReturning } from "../../db/multi-row.ts";
import { inList, sql, type Query } from "../../db/sql.ts";
import type { EventRow, PipelineCursorRow, PipelineExecutionRow, PipelineRow } from "../../db/rows.ts";
import type { EventBus } from "../../events/bus.ts";
import type { HubEvent, PayloadOf } from "../../events/types.ts";
import type { Rule } from "../../../lib/api/pipelines.ts";
import type { DomainDeps } from "../deps.ts";
import { toHubEvent } from "../events/events.service.ts";
import { runAction, type ActionOutcome } from "./actions.ts";
import { creatorOf } from "./creator.ts";
import { EvaluationFailure, evaluateCondition } from "./expressions.ts";
import { lastEventId, parseRules } from "./pipelines.service.ts";
import { contextFor, firesOn, passesFilters, type EventContext } from "./triggers.ts";

export const MAX_DEPTH = 10;
const BATCH = 500;
/** How long one transaction of the runner may go on: the other writes of the hub wait for it. */
const SLICE_MS = 20;
/**
 * Events no pipeline is concerned with move the cursor in memory only, and in the database once this many have
 * passed (or with the next slice that writes anyway): most commits concern no pipeline, and a cursor write of its own
 * for each doubled their cost. After a restart the runner reads those events again, and skips them again.
 */
const CURSOR_LAG = 1000;
const RUNNER = "pipeline-runner";
const PARSED_RULES = 1000;

/** What the runner reads of an active pipeline; its rules are read apart, only when an event may concern it. */
type ActiveRow = Pick<PipelineRow, "pk" | "teamId" | "id" | "createdBy" | "fromEventId">;
const ACTIVE_COLUMNS = sql`"pk","teamId","id","createdBy","fromEventId"`;
type Active = ActiveRow & { parsed: Rule[] };
/** What the execution log records; a false condition is logged but not announced. */
type Outcome = PayloadOf<"pipeline.executed">["outcome"] | "condition_false";
type Fired = Omit<Record_, "outcome">;
type Record_ = {
  pipeline: Active;
  ruleIndex: number;
  rule: Rule;
  outcome: Outcome;
  conditionResult: boolean | null;
  detail?: unknown;
  error?: string;
  started: number;
};

async function readCursor(s: Sql): Promise<number> {
  const row = await s.get<Pick<PipelineCursorRow, "lastEventId">>(sql`SELECT "lastEventId" FROM "PipelineCursor" WHERE "id" = 1`);
  if (row) return row.lastEventId;
  // First run on this database: nothing before the oldest pipeline can concern any rule.
  return (await s.get<{ n: number }>(sql`SELECT COALESCE((SELECT MIN("fromEventId") FROM "Pipeline"), (SELECT MAX("id") FROM "Event"), 0) AS "n"`))!.n;
}

async function alreadyDone(tx: WriteTx, r: Pick<Record_, "pipeline" | "ruleIndex">, eventId: number): Promise<boolean> {
  return !!(await tx.get(
    sql`SELECT 1 FROM "PipelineExecution" WHERE "pipelinePk" = ${r.pipeline.pk} AND "ruleIndex" = ${r.ruleIndex} AND "eventId" = ${eventId}`,
  ));
}

const EXECUTION_COLUMNS = sql`"pipelinePk","ruleIndex","eventId","teamId","conditionResult","action","outcome","detail","error","durationMs","at"`;

/** One execution row, `(…)`, in the order of EXECUTION_COLUMNS. */
function executionRow(tx: WriteTx, e: HubEvent, r: Record_): Query {
  const detail = r.detail === undefined ? null : JSON.stringify(r.detail);
  return sql`(${r.pipeline.pk},${r.ruleIndex},${e.id},${r.pipeline.teamId},${r.conditionResult},${r.rule.action.type},${r.outcome},${detail},${r.error ?? null},${performance.now() - r.started},${tx.now})`;
}

async function record(tx: WriteTx, e: HubEvent, r: Record_): Promise<void> {
  await tx.run(sql`INSERT INTO "PipelineExecution" (${EXECUTION_COLUMNS}) VALUES ${executionRow(tx, e, r)}`);
  await announce(tx, e, r);
}

/**
 * The outcomes of one event that ran no action (false conditions, failed conditions, the loop guard), each logged
 * unless a run before logged it, in as few statements as the database takes: an event fires dozens of rules, and
 * their rows were most of the runner's work when each was a statement of its own (docs/performance.md#pipelines).
 */
async function recordQuiet(tx: WriteTx, e: HubEvent, rs: Record_[]): Promise<void> {
  const logged = await multiRowReturning<Pick<PipelineExecutionRow, "pipelinePk" | "ruleIndex">>(
    tx,
    rs.map((r) => executionRow(tx, e, r)),
    (values) => sql`INSERT INTO "PipelineExecution" (${EXECUTION_COLUMNS}) VALUES ${values} ON CONFLICT DO NOTHING RETURNING "pipelinePk","ruleIndex"`,
  );
  const fresh = new Set(logged.map((x) => `${x.pipelinePk}/${x.ruleIndex}`));
  for (const r of rs) if (fresh.has(`${r.pipeline.pk}/${r.ruleIndex}`)) await announce(tx, e, r);
}

async function announce(tx: WriteTx, e: HubEvent, r: Record_): Promise<void> {
  // A condition that is false is routine; everything else shows up in the live feed.
  if (r.outcome === "condition_false") return;
  await tx.emit({
    teamId: r.pipeline.teamId,
    type: "pipeline.executed",
    subject: `pipeline:${r.pipeline.id}`,
    payload: {
      pipeline: r.pipeline.id,
      rule: r.ruleIndex,
      ruleName: r.rule.name ?? null,
      eventId: e.id,
      action: r.rule.action.type,
      outcome: r.outcome,
      conditionResult: r.conditionResult,
      error: r.error ?? null,
    },
  });
}

export class PipelineRunner {
  private running: Promise<void> | null = null;
  /** The last event this runner has dealt with; the stored cursor may lag it by up to CURSOR_LAG events. */
  private position = 0;
  private again = false;
  private stopped = false;
  private unsubscribe?: () => void;

  /**
   * Rules by the text of their column, parsed once: a drain follows every commit of the hub, and parsing every active
   * pipeline's rules again each time was most of a drain's cost when no rule fired (docs/performance.md#pipelines).
   * The runner only reads them. Emptied when it grows past PARSED_RULES, texts no pipeline has any more with it.
   */
  private readonly parsed = new Map<string, Rule[]>();

  constructor(private readonly deps: DomainDeps) {}

  private rulesOf(p: Pick<PipelineRow, "rules">): Rule[] {
    let rules = this.parsed.get(p.rules);
    if (!rules) {
      if (this.parsed.size >= PARSED_RULES) this.parsed.clear();
      rules = parseRules(p);
      this.parsed.set(p.rules, rules);
    }
    return rules;
  }

  start(bus: EventBus): void {
    this.unsubscribe = bus.subscribe(() => void this.kick());
    void this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await this.running;
  }

  /** Something was committed: make sure a drain runs soon, once more if one is under way. Settles when the runner is idle. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      // After the committing request has answered: a kick comes from the commit's own fan-out, and a drain begun there
      // did its first reads before the answer left (docs/performance.md#what-the-runner-adds-to-every-commit).
      await new Promise((resolve) => setImmediate(resolve));
      do {
        this.again = false;
        try {
          await this.drain();
        } catch (e) {
          console.error("[teamhub] pipeline runner failed; it retries on the next event:", e);
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = null));
    return this.running;
  }

  /** Processes every event after the cursor; returns once caught up. */
  async drain(): Promise<void> {
    while (!this.stopped) {
      const read = await this.deps.db.read(async (s) => {
        const active = await s.all<ActiveRow>(sql`SELECT ${ACTIVE_COLUMNS} FROM "Pipeline" WHERE "status" = 'active' ORDER BY "pk"`);
        // No active pipeline: nothing committed so far concerns one, and one created later starts after it (`fromEventId`),
        // so the runner stands at the newest event. The drain follows every commit of the hub; reading the cursor and the
        // log was most of a write's cost on a team without pipelines (docs/performance.md#pipelines).
        if (active.length === 0) return lastEventId(s);
        const stored = await readCursor(s);
        const rows = await s.all<EventRow>(sql`SELECT * FROM "Event" WHERE "id" > ${Math.max(stored, this.position)} ORDER BY "id" LIMIT ${BATCH}`);
        // The rules only of pipelines these events may concern: their text is most of what reading a pipeline costs.
        const newest = new Map(rows.map((r) => [r.teamId, r.id]));
        const wanted = active.filter((p) => (newest.get(p.teamId) ?? 0) > p.fromEventId);
        const texts = wanted.length
          ? await s.all<Pick<PipelineRow, "pk" | "rules">>(sql`SELECT "pk","rules" FROM "Pipeline" WHERE "pk" IN ${inList(wanted.map((p) => p.pk))}`)
          : [];
        const textOf = new Map(texts.map((t) => [t.pk, t]));
        return { stored, events: rows.map(toHubEvent), pipelines: wanted.map((p) => ({ ...p, parsed: this.rulesOf(textOf.get(p.pk)!) })) };
      });
      if (typeof read === "number") {
        this.position = Math.max(this.position, read);
        return;
      }
      const { events, pipelines, stored } = read;
      if (events.length === 0) return;
      const concerned = (e: HubEvent) => pipelines.filter((p) => p.teamId === e.teamId && p.fromEventId < e.id);
      let next = 0;
      // Past events no pipeline is concerned with, without a transaction while the stored cursor is recent enough.
      while (next < events.length && concerned(events[next]).length === 0 && events[next].id - stored < CURSOR_LAG) this.position = events[next++].id;
      // Caught up and nothing written: a commit after this read kicks the runner again, so reading once more is waste.
      if (next === events.length && events.length < BATCH) return;
      while (next < events.length && !this.stopped) next = await this.slice(events, next, concerned);
    }
  }

  /** Events from `first` on, for at most SLICE_MS (at least one), in one transaction with the cursor; returns where it stopped. */
  private async slice(events: HubEvent[], first: number, concerned: (e: HubEvent) => Active[]): Promise<number> {
    const next = await this.deps.db.write("pipeline.run", RUNNER, async (tx) => {
      const started = performance.now();
      let at = first;
      do {
        const e = events[at++];
        const pipelines = concerned(e);
        if (pipelines.length) await this.process(tx, e, pipelines);
      } while (at < events.length && performance.now() - started < SLICE_MS && !this.stopped);
      await tx.run(
        sql`INSERT INTO "PipelineCursor" ("id","lastEventId") VALUES (1, ${events[at - 1].id}) ON CONFLICT ("id") DO UPDATE SET "lastEventId" = excluded."lastEventId"`,
      );
      return at;
    });
    this.position = events[next - 1].id;
    return next;
  }

  private async process(tx: WriteTx, e: HubEvent, pipelines: Active[]): Promise<void> {
    let ctx: EventContext | null | undefined;
    const quiet: Record_[] = [];
    const acting: Fired[] = [];
    for (const pipeline of pipelines) {
      for (const [ruleIndex, rule] of pipeline.parsed.entries()) {
        if (!firesOn(rule.trigger, e)) continue;
        ctx ??= await contextFor(tx, e, rule.trigger.type, true);
        if (!ctx || !passesFilters(rule.trigger, ctx)) continue;
        const r: Fired = { pipeline, ruleIndex, rule, conditionResult: null, started: performance.now() };
        if (e.depth >= MAX_DEPTH) {
          quiet.push({ ...r, outcome: "loop_guard", error: `stopped: this event is ${e.depth} actions deep; chains stop at depth ${MAX_DEPTH}` });
          continue;
        }
        if (rule.condition !== undefined) {
          try {
            r.conditionResult = evaluateCondition(rule.condition, ctx.scope, ctx.vars);
          } catch (err) {
            if (!(err instanceof EvaluationFailure)) throw err;
            quiet.push({ ...r, outcome: "condition_error", error: err.message });
            continue;
          }
          if (!r.conditionResult) {
            quiet.push({ ...r, outcome: "condition_false" });
            continue;
          }
        }
        acting.push(r);
      }
    }
    const cause = { eventId: e.id, depth: e.depth };
    if (quiet.length) {
      await tx.part({ name: "pipeline.record", principal: RUNNER, cause }, (part) => recordQuiet(part, e, quiet));
    }
    for (const r of acting) await this.act(tx, e, r, ctx!);
  }

  /**
   * One fired rule in a part of the slice's transaction of its own, as the pipeline's creator (creator.ts); a failed
   * action, a refused one included, is undone and logged in another part.
   */
  private async act(tx: WriteTx, e: HubEvent, r: Fired, ctx: EventContext): Promise<void> {
    const cause = { eventId: e.id, depth: e.depth };
    try {
      await tx.part({ name: "pipeline.execute", principal: r.pipeline.createdBy, cause }, async (part) => {
        if (await alreadyDone(part, r, e.id)) return;
        const actor = await creatorOf(part, r.pipeline);
        if (r.rule.rateLimit && (await overRate(part, r))) {
          return record(part, e, { ...r, outcome: "rate_limited", error: `more than ${r.rule.rateLimit.max} executions in ${r.rule.rateLimit.perSeconds} s` });
        }
        const done: ActionOutcome = await runAction({ tx: part, team: r.pipeline.teamId, actor, sender: `pipeline:${r.pipeline.id}`, ctx }, r.rule.action);
        await record(part, e, { ...r, outcome: done.outcome, detail: done.detail });
      });
    } catch (err) {
      await tx.part({ name: "pipeline.record", principal: RUNNER, cause }, async (part) => {
        if (!(await alreadyDone(part, r, e.id))) await record(part, e, { ...r, outcome: "failed", error: (err as Error).message });
      });
    }
  }
}

async function overRate(tx: WriteTx, r: Fired): Promise<boolean> {
  const limit = r.rule.rateLimit!;
  const since = new Date(tx.now.getTime() - limit.perSeconds * 1000);
  const row = await tx.get<{ n: number }>(
    sql`SELECT COUNT(*) AS "n" FROM "PipelineExecution" WHERE "pipelinePk" = ${r.pipeline.pk} AND "ruleIndex" = ${r.ruleIndex} AND "outcome" = 'executed' AND "at" > ${since}`,
  );
  return row!.n >= limit.max;
}
