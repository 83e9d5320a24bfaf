/**
 * `sessions.sandbox`: what the OS sandbox (docs/security.md#sandbox) adds to starting a session. Two real hubs run
 * side by side, one with bubblewrap and one with TEAMHUB_SANDBOX=off, both in the default layout
 * (data dir inside the work dir, a work tree with files to scan); spawns alternate between them and
 * each is timed from the spawn request to its first result.
 */
import fs from "node:fs";
import path from "node:path";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { api, startHub, type HubProcess } from "../e2e/helpers/hub-process.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { checkSandbox } from "../server/supervisor/sandbox-check.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check } from "./lib/check.ts";
import { median, ms, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";
import { eventStream, type EventStream } from "./sessions/events.ts";

const RUNS = 7;
const MAX_RATIO = 1.1;
// A modest project: sources to scan, and a node_modules the scan must not descend into.
const SOURCE_FILES = 500;
const MODULE_FILES = 2000;

function plantProject(work: string): void {
  for (let i = 0; i < SOURCE_FILES; i++) {
    const dir = path.join(work, "src", `m${i % 25}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  for (let i = 0; i < MODULE_FILES; i++) {
    const dir = path.join(work, "node_modules", `p${i % 100}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `i${i}.js`), "module.exports = 1;\n");
  }
  fs.writeFileSync(path.join(work, ".env"), "SECRET=1\n");
}

type Side = { hub: HubProcess; events: EventStream; times: number[] };

async function startSide(dir: string, apiUrl: string, sandbox: "auto" | "off"): Promise<Side> {
  const work = path.join(dir, sandbox, "work");
  fs.mkdirSync(work, { recursive: true });
  plantProject(work);
  const vars = isolatedClaudeVars(apiUrl, path.join(dir, sandbox, "home"));
  const hub = await startHub(path.join(work, "data"), {
    CLAUDE_BIN,
    TEAMHUB_CLAUDE_ENV: JSON.stringify(vars),
    TEAMHUB_WORK_DIR: work,
    TEAMHUB_QUIET: "1",
    TEAMHUB_SANDBOX: sandbox,
  });
  return { hub, events: await eventStream(hub.url), times: [] };
}

async function spawnToFirstResult(side: Side, name: string): Promise<number> {
  const done = side.events.next((e) => e.type === "session.turn_completed" && e.payload.name === name);
  const t0 = performance.now();
  const res = await api(side.hub, "POST", "/api/sessions", { name, prompt: "hello" });
  check(res.status >= 200 && res.status < 300, `spawn ${name}: ${typeof res.body === "string" ? res.body : JSON.stringify(res.body)}`);
  await done;
  const elapsed = performance.now() - t0;
  await api(side.hub, "POST", `/api/sessions/${name}/stop`, {});
  return elapsed;
}

export default async function sandbox(): Promise<void> {
  const status = checkSandbox("auto", "bwrap");
  if (status.kind === "none") return void console.log(`sessions.sandbox: skipped, no sandbox here (${status.reason})`);
  ensureBuild(PROJECT_ROOT);
  const fake = await startFakeApi(() => ({ text: "pong" }));
  try {
    await inTempDir(async (dir) => {
      const [boxed, open] = await Promise.all([startSide(dir, fake.url, "auto"), startSide(dir, fake.url, "off")]);
      try {
        // Alternating, after one warm-up of each, so caches and load touch both alike.
        for (let i = -1; i < RUNS; i++) {
          for (const side of [boxed, open]) {
            const t = await spawnToFirstResult(side, `spawn-${i + 1}`);
            if (i >= 0) side.times.push(t);
          }
        }
        const kinds = await Promise.all(
          [boxed, open].map(async (s) => ((await (await fetch(`${s.hub.url}/api/sessions/spawn-1`)).json()) as { sandbox: string }).sandbox),
        );
        check(kinds[0] === "bubblewrap" && kinds[1] === "none", `the sandboxed hub's sessions are bubblewrap and the other's none (got ${kinds.join(", ")})`);
        const ratio = median(boxed.times) / median(open.times);
        const verdict = target(`≤ ${MAX_RATIO}x`, ratio <= MAX_RATIO);
        console.log(
          `sessions.sandbox: spawn-to-first-result in bubblewrap median ${ms(median(boxed.times))} vs unsandboxed ${ms(median(open.times))} ` +
            `over ${RUNS} runs each (work tree of ${SOURCE_FILES} sources + ${MODULE_FILES} module files); ratio ${ratio.toFixed(2)}x ${verdict}`,
        );
      } finally {
        for (const s of [boxed, open]) {
          s.events.close();
          await s.hub.kill();
        }
      }
    });
  } finally {
    await fake.close();
  }
}
