/**
 * The pipeline runner (docs/domain.md#pipelines). It reads the event log after a durable cursor, so nothing committed
 * is missed across restarts, and runs each fired rule exactly once per (rule, event): the
 * execution row is unique on that pair and commits in the same transaction as the action's
 * writes, so a crash either left both or neither. Events written by an action carry depth + 1;
 * at depth 10 the chain stops with a `loop_guard` entry.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import type { EventRow } from "../../db/rows.ts";
import type { EventBus } from "../../events/bus.ts";
import type { HubEvent, PayloadOf } from "../../events/types.ts";
import type { Rule } from "../../../lib/api/pipelines.ts";
import type { DomainDeps } from "../deps.ts";
import { toHubEvent } from "../events/events.service.ts";
import { runAction, type ActionOutcome } from "./actions.ts";
import { creatorOf } from "./creator.ts";
import { EvaluationFailure, evaluateCondition } from "./expressions.ts";
import { parseRules, type PipelineRow } from "./pipelines.service.ts";
import { contextFor, firesOn, passesFilters, type EventContext } from "./triggers.ts";

export const MAX_DEPTH = 10;
const BATCH = 500;
const RUNNER = "pipeline-runner";

type Active = PipelineRow & { parsed: Rule[] };
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

async function readCursor(sql: Sql): Promise<number> {
  const row = await sql.get<{ lastEventId: number }>(`SELECT "lastEventId" FROM "PipelineCursor" WHERE "id" = 1`);
  if (row) return row.lastEventId;
  // First run on this database: nothing before the oldest pipeline can concern any rule.
  return (await sql.get<{ n: number }>(`SELECT COALESCE((SELECT MIN("fromEventId") FROM "Pipeline"), (SELECT MAX("id") FROM "Event"), 0) AS "n"`))!.n;
}

async function alreadyDone(tx: WriteTx, r: Pick<Record_, "pipeline" | "ruleIndex">, eventId: number): Promise<boolean> {
  return !!(await tx.get(`SELECT 1 FROM "PipelineExecution" WHERE "pipelinePk" = ? AND "ruleIndex" = ? AND "eventId" = ?`, [
    r.pipeline.pk,
    r.ruleIndex,
    eventId,
  ]));
}

async function record(tx: WriteTx, e: HubEvent, r: Record_): Promise<void> {
  await tx.run(
    `INSERT INTO "PipelineExecution" ("pipelinePk","ruleIndex","eventId","teamId","conditionResult","action","outcome","detail","error","durationMs","at") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
    [
      r.pipeline.pk,
      r.ruleIndex,
      e.id,
      r.pipeline.teamId,
      r.conditionResult,
      r.rule.action.type,
      r.outcome,
      r.detail === undefined ? null : JSON.stringify(r.detail),
      r.error ?? null,
      performance.now() - r.started,
      tx.now,
    ],
  );
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
  private again = false;
  private stopped = false;
  private unsubscribe?: () => void;

  constructor(private readonly deps: DomainDeps) {}

  start(bus: EventBus): void {
    this.unsubscribe = bus.subscribe(() => this.kick());
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await this.running;
  }

  /** Something was committed: make sure a drain runs soon, once more if one is under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.drain();
        } catch (e) {
          console.error("[teamhub] pipeline runner failed; it retries on the next event:", e);
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = null));
  }

  /** Processes every event after the cursor; returns once caught up. */
  async drain(): Promise<void> {
    while (!this.stopped) {
      const { events, pipelines } = await this.deps.db.read(async (sql) => {
        const cursor = await readCursor(sql);
        const rows = await sql.all<EventRow>(`SELECT * FROM "Event" WHERE "id" > ? ORDER BY "id" LIMIT ?`, [cursor, BATCH]);
        const active = await sql.all<PipelineRow>(`SELECT * FROM "Pipeline" WHERE "status" = 'active' ORDER BY "pk"`);
        return { events: rows.map(toHubEvent), pipelines: active.map((p) => ({ ...p, parsed: parseRules(p) })) };
      });
      if (events.length === 0) return;
      for (const e of events) {
        if (this.stopped) return;
        const concerned = pipelines.filter((p) => p.teamId === e.teamId && p.fromEventId < e.id);
        if (concerned.length) await this.process(e, concerned);
      }
      const last = events[events.length - 1].id;
      await this.deps.db.write("pipeline.cursor", RUNNER, async (tx) => {
        await tx.run(
          `INSERT INTO "PipelineCursor" ("id","lastEventId") VALUES (1, ?) ON CONFLICT ("id") DO UPDATE SET "lastEventId" = excluded."lastEventId"`,
          [last],
        );
      });
    }
  }

  private async process(e: HubEvent, pipelines: Active[]): Promise<void> {
    let ctx: EventContext | null | undefined;
    const quiet: Record_[] = [];
    const acting: Fired[] = [];
    for (const pipeline of pipelines) {
      for (const [ruleIndex, rule] of pipeline.parsed.entries()) {
        if (!firesOn(rule.trigger, e)) continue;
        ctx ??= await this.deps.db.read((sql) => contextFor(sql, e, rule.trigger.type, true));
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
    if (quiet.length) {
      await this.deps.db.write(
        "pipeline.record",
        RUNNER,
        async (tx) => {
          for (const r of quiet) if (!(await alreadyDone(tx, r, e.id))) await record(tx, e, r);
        },
        { cause: { eventId: e.id, depth: e.depth } },
      );
    }
    for (const r of acting) await this.act(e, r, ctx!);
  }

  /**
   * One fired rule in its own transaction, as the pipeline's creator (creator.ts); a failed action,
   * a refused one included, rolls back and is logged in another.
   */
  private async act(e: HubEvent, r: Fired, ctx: EventContext): Promise<void> {
    const cause = { eventId: e.id, depth: e.depth };
    try {
      await this.deps.db.write(
        "pipeline.execute",
        r.pipeline.createdBy,
        async (tx) => {
          if (await alreadyDone(tx, r, e.id)) return;
          const actor = await creatorOf(tx, r.pipeline);
          if (r.rule.rateLimit && (await overRate(tx, r))) {
            return record(tx, e, { ...r, outcome: "rate_limited", error: `more than ${r.rule.rateLimit.max} executions in ${r.rule.rateLimit.perSeconds} s` });
          }
          const done: ActionOutcome = await runAction({ tx, team: r.pipeline.teamId, actor, sender: `pipeline:${r.pipeline.id}`, ctx }, r.rule.action);
          await record(tx, e, { ...r, outcome: done.outcome, detail: done.detail });
        },
        { cause },
      );
    } catch (err) {
      await this.deps.db.write(
        "pipeline.record",
        RUNNER,
        async (tx) => {
          if (!(await alreadyDone(tx, r, e.id))) await record(tx, e, { ...r, outcome: "failed", error: (err as Error).message });
        },
        { cause },
      );
    }
  }
}

async function overRate(tx: WriteTx, r: Fired): Promise<boolean> {
  const limit = r.rule.rateLimit!;
  const since = new Date(tx.now.getTime() - limit.perSeconds * 1000);
  const row = await tx.get<{ n: number }>(
    `SELECT COUNT(*) AS "n" FROM "PipelineExecution" WHERE "pipelinePk" = ? AND "ruleIndex" = ? AND "outcome" = 'executed' AND "at" > ?`,
    [r.pipeline.pk, r.ruleIndex, since],
  );
  return row!.n >= limit.max;
}
