/**
 * What the pipeline runner adds to a commit it has nothing to do for. In the hub a drain follows every commit; here
 * each publish is followed by one, on two hubs side by side: one with no pipeline, and one whose team has none while
 * another team of the hub has the pipeline figure's 10 (100 rules). Blocks of publishes alternate between the two, so
 * a busy moment of the machine touches both alike. Before the runner kept its parsed rules and stopped reading the log
 * when no pipeline was active, the second hub's commits cost 4.6 times the first's (docs/performance.md#pipelines).
 */
import fs from "node:fs";
import path from "node:path";
import { CreatePipelineInput } from "../../lib/api/pipelines.ts";
import { createPipeline } from "../../server/domain/pipelines/pipelines.service.ts";
import { PipelineRunner } from "../../server/domain/pipelines/runner.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import { scalar } from "../lib/scalar.ts";
import { ms, summarize, target } from "../lib/stats.ts";
import { inTempDir, openHub, type BenchHub } from "../lib/temp-db.ts";
import { pipelineEvents, publishEvent } from "./pipeline-events.ts";
import { PIPELINES, pipelineRules } from "./pipeline-rules.ts";

const PUBLISHES = 600;
const WARM_UP = 100;
const BLOCK = 50;
export const MAX_COMMIT_RATIO = 1.5;

/** Prints the figure as `label` and judges it against `maxRatio`; returns the ratio of the two hubs' median commits. */
export function commitDrainFigure(label = "reactive.commit_drain", maxRatio = MAX_COMMIT_RATIO): Promise<number> {
  return inTempDir(async (dir) => {
    const [bare, elsewhere] = ["bare", "elsewhere"].map((name) => openHub(fs.mkdirSync(path.join(dir, name), { recursive: true })!));
    try {
      for (let p = 0; p < PIPELINES; p++) {
        await createPipeline(
          elsewhere,
          OPERATOR,
          CreatePipelineInput.parse({ id: `pipeline-${p}`, team: "other", rules: pipelineRules(p).map((r) => r.rule) }),
        );
      }
      const hubs = [bare, elsewhere].map((hub) => ({ hub, runner: new PipelineRunner(hub), ms: new Float64Array(PUBLISHES) }));
      const events = pipelineEvents().slice(0, WARM_UP + PUBLISHES);
      const commit = async ({ hub, runner }: (typeof hubs)[number], i: number) => {
        const e = events[i];
        const t0 = performance.now();
        await publishEvent(hub, e);
        await runner.drain();
        return performance.now() - t0;
      };
      for (let i = 0; i < WARM_UP; i++) for (const h of hubs) await commit(h, i);
      for (let block = 0; block < PUBLISHES; block += BLOCK) {
        for (const h of hubs) for (let i = block; i < block + BLOCK; i++) h.ms[i] = await commit(h, WARM_UP + i);
      }
      check(executions(elsewhere) === 0, "the pipelines of another team ran on this team's events");
      const [b, o] = hubs.map((h) => summarize(h.ms));
      const ratio = o.p50 / b.p50;
      console.log(
        `${label}: ${PUBLISHES} publishes each followed by the runner's drain, as in the hub: p50 ${ms(o.p50)} (p99 ${ms(o.p99)}) with ${PIPELINES} pipelines of another team active ` +
          `vs ${ms(b.p50)} (p99 ${ms(b.p99)}) with none, ratio ${ratio.toFixed(2)}x ${target(`≤ ${maxRatio}x`, ratio <= maxRatio)} (interleaved in blocks of ${BLOCK})`,
      );
      return ratio;
    } finally {
      await Promise.all([bare.close(), elsewhere.close()]);
    }
  });
}

const executions = (hub: BenchHub) => scalar(hub.sqlite.reader.raw, `SELECT COUNT(*) FROM "PipelineExecution"`);
