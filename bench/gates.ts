/**
 * `npm run bench:check`: the figures whose drift matters most, small enough for CI (about a minute on the project's
 * 2-core machine), each judged against a gate looser than `npm run bench`'s target, since CI shares the machine with
 * whatever else runs: publish ≤ 2× raw better-sqlite3 (target 1.5×), pipelines ≥ 1,000 publish events/s (target 2,000),
 * a commit beside another team's pipelines ≤ 2× one with none (target 1.5×), MCP tools/call ≤ 1.5× the echo tool
 * (target 1.2×), 50 clients with 0 errors, and the RSS of this process, which runs the hub of the MCP figures, ≤ 450 MB
 * after them. Every figure prints its line with its ratio to a baseline of the same run; any gate passed (or a figure
 * that fails outright) makes the exit code 1.
 */
import { mb } from "./lib/stats.ts";
import { publishLine, publishRatio } from "./core/publish-figure.ts";
import { mcpFigures } from "./mcp.bench.ts";
import { commitDrainFigure } from "./reactive/commit-drain-figure.ts";
import { pipelineFigure } from "./reactive/pipeline-figure.ts";

const GATES = { publishRatio: 2, pipelineEventsPerSecond: 1000, commitDrainRatio: 2, mcpRatio: 1.5, maxRssBytes: 450 * 1024 * 1024 };

const failures: string[] = [];
const gate = (what: string, ok: boolean) => void (ok || failures.push(what));

async function figure(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const started = performance.now();
await figure("publish", async () => {
  const r = await publishRatio(300, 10);
  console.log(publishLine("check.publish", r, GATES.publishRatio));
  gate(`publish ${r.ratio.toFixed(2)}x raw > ${GATES.publishRatio}x`, r.ratio <= GATES.publishRatio);
});
await figure("pipelines", async () => {
  const rate = await pipelineFigure("check.pipelines", GATES.pipelineEventsPerSecond);
  gate(`pipelines ${rate.toFixed(0)} events/s < ${GATES.pipelineEventsPerSecond}`, rate >= GATES.pipelineEventsPerSecond);
});
await figure("commit drain", async () => {
  const ratio = await commitDrainFigure("check.commit_drain", GATES.commitDrainRatio);
  gate(`a commit beside another team's pipelines ${ratio.toFixed(2)}x one with none > ${GATES.commitDrainRatio}x`, ratio <= GATES.commitDrainRatio);
});
await figure("mcp", async () => {
  const m = await mcpFigures({ roundTrips: 300, callsEach: 20, maxRatio: GATES.mcpRatio, minCallsPerSecond: 0, label: "check.mcp" });
  gate(`MCP tools/call ${m.ratio.toFixed(2)}x echo > ${GATES.mcpRatio}x`, m.ratio <= GATES.mcpRatio);
  gate(`MCP 50 clients: ${m.errors} errors`, m.errors === 0);
  const rss = process.memoryUsage.rss();
  console.log(
    `check.memory: RSS of this process (the MCP figures' hub ran in it) ${mb(rss)} after them, ${((100 * rss) / GATES.maxRssBytes).toFixed(0)}% of the 450 MB gate`,
  );
  gate(`RSS ${mb(rss)} > 450 MB`, rss <= GATES.maxRssBytes);
});
const seconds = (performance.now() - started) / 1000;
if (failures.length) {
  console.error(`bench:check FAILED in ${seconds.toFixed(0)} s: ${failures.join("; ")}`);
  process.exitCode = 1;
} else {
  console.log(`bench:check passed in ${seconds.toFixed(0)} s`);
}
