/**
 * Figure 6: pipeline throughput. 100 rules (pipeline-rules.ts) on a fresh hub, 2,000 publishes
 * through the service layer (setup), then one timed `drain()` of a new PipelineRunner over all
 * of them, including the events its own actions write. The execution log must hold exactly the
 * outcome each rule's plain-TypeScript meaning predicts for each event, and one message per
 * executed action. Target: at least 2,000 publish events a second.
 */
import { CreatePipelineInput } from "../../lib/api/pipelines.ts";
import { createPipeline } from "../../server/domain/pipelines/pipelines.service.ts";
import { PipelineRunner } from "../../server/domain/pipelines/runner.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import { scalar } from "../lib/scalar.ts";
import { ms, target } from "../lib/stats.ts";
import { inTempDir, openHub, type BenchHub } from "../lib/temp-db.ts";
import { timed } from "../lib/timing.ts";
import { pipelineEvents, publishEvent, type Published } from "./pipeline-events.ts";
import { PIPELINES, pipelineRules, type RuleSpec } from "./pipeline-rules.ts";

const pipelineId = (p: number) => `pipeline-${p}`;
export const MIN_EVENTS_PER_SECOND = 2000;

/** `pipeline/rule/outcome` → executions, as the rules' meaning predicts them. */
function expectedLog(rules: RuleSpec[][], events: Published[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) {
    for (const [p, pipeline] of rules.entries()) {
      for (const [i, r] of pipeline.entries()) {
        if (!r.fires(e)) continue;
        const key = `${pipelineId(p)}/${i}/${r.holds(e) ? "executed" : "condition_false"}`;
        out.set(key, (out.get(key) ?? 0) + 1);
      }
    }
  }
  return out;
}

function loggedExecutions(hub: BenchHub): Map<string, number> {
  const rows = hub.sqlite.reader.raw
    .prepare(
      `SELECT p."id" || '/' || x."ruleIndex" || '/' || x."outcome" AS "key", COUNT(*) AS "n" FROM "PipelineExecution" x JOIN "Pipeline" p ON p."pk" = x."pipelinePk" GROUP BY 1`,
    )
    .all() as Array<{ key: string; n: number }>;
  return new Map(rows.map((r) => [r.key, r.n]));
}

const sum = (m: Map<string, number>, outcome: string) => [...m].filter(([k]) => k.endsWith(`/${outcome}`)).reduce((n, [, v]) => n + v, 0);

/** Prints the figure as `label` and judges it against `minRate` publish events a second; returns the rate. */
export function pipelineFigure(label = "reactive.pipelines", minRate = MIN_EVENTS_PER_SECOND): Promise<number> {
  return inTempDir(async (dir) => {
    const hub = openHub(dir);
    try {
      const rules = Array.from({ length: PIPELINES }, (_, p) => pipelineRules(p));
      for (const [p, pipeline] of rules.entries()) {
        await createPipeline(hub, OPERATOR, CreatePipelineInput.parse({ id: pipelineId(p), rules: pipeline.map((r) => r.rule) }));
      }
      const events = pipelineEvents();
      const publishStart = performance.now();
      for (const e of events) {
        await publishEvent(hub, e);
      }
      const publishRate = events.length / ((performance.now() - publishStart) / 1000);
      const firstEvent = scalar(hub.sqlite.reader.raw, `SELECT MIN("fromEventId") FROM "Pipeline"`);

      const drain = await timed(() => new PipelineRunner(hub).drain());

      const expected = expectedLog(rules, events);
      const logged = loggedExecutions(hub);
      const differing = [...new Set([...expected.keys(), ...logged.keys()])].filter((k) => expected.get(k) !== logged.get(k));
      check(
        differing.length === 0,
        `${differing.length} (pipeline, rule, outcome) counts differ from what the conditions imply, e.g. ${differing[0]}: logged ${logged.get(differing[0])}, expected ${expected.get(differing[0])}`,
      );
      const executed = sum(expected, "executed");
      const evaluated = executed + sum(expected, "condition_false");
      const messages = scalar(hub.sqlite.reader.raw, `SELECT COUNT(*) FROM "Message"`);
      check(messages === executed, `${messages} messages delivered for ${executed} executed notify_session actions`);
      const processed = scalar(hub.sqlite.reader.raw, `SELECT COUNT(*) FROM "Event" WHERE "id" > ?`, firstEvent);
      const perSecond = (n: number) => (n / (drain.ms / 1000)).toFixed(0);

      const rate = events.length / (drain.ms / 1000);
      console.log(
        `${label}: ${PIPELINES * rules[0].length} rules (${PIPELINES} pipelines) over ${events.length} publish events drained in ${ms(drain.ms)}: ` +
          `${perSecond(events.length)} publish events/s ${target(`≥ ${minRate}`, rate >= minRate)}, ratio ${(rate / publishRate).toFixed(2)}x the rate the same publishes were made at in this run (${publishRate.toFixed(0)}/s) (${processed} events in all, with those the actions wrote), ${perSecond(evaluated)} executions/s logged ` +
          `(${evaluated} rule evaluations, ${executed} true = ${((100 * executed) / evaluated).toFixed(1)}%, each executed as notify_session: ${perSecond(executed)} actions/s)`,
      );
      return rate;
    } finally {
      hub.close();
    }
  });
}
