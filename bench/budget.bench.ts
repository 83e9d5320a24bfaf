/**
 * `sessions.budget`: what budget accounting and checks add to a turn (docs/budgets.md). Two
 * databases in this process, each with one team member working on a contract and a history of
 * earlier turns; one team has a team, a member and a contract budget, the other none. Turns
 * alternate between them, so both sides see the same machine at the same moment. A turn here is
 * what the supervisor writes for it: `startNextTurn` (the hard-stop check) and `finishTurn` (the
 * charge and the warning check), timed together; the message is queued before the clock starts.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { SendInput, TeamSpawnInput } from "../lib/api/sessions.ts";
import { ContractRefInput, CreateContractInput } from "../lib/api/contracts.ts";
import { SetBudgetInput } from "../lib/api/budgets.ts";
import { setBudget } from "../server/domain/budgets/budgets.service.ts";
import { createContract, startContract } from "../server/domain/contracts/contracts.service.ts";
import { OPERATOR } from "../server/domain/principal.ts";
import { sendMessage } from "../server/domain/sessions/control.service.ts";
import { finishTurn, markLaunched, startNextTurn } from "../server/domain/sessions/runtime.ts";
import { teamSpawn } from "../server/domain/sessions/spawn.service.ts";
import { findSession } from "../server/domain/sessions/sessions.repo.ts";
import { check } from "./lib/check.ts";
import { ms, summarize } from "./lib/stats.ts";
import { inTempDir, openHub, type BenchHub } from "./lib/temp-db.ts";
import { TEST_RUNTIMES } from "../server/testing/operations.ts";

const HISTORY = 2000;
const TURNS = 1000;
const TEAM = "bench";

type Side = { hub: BenchHub; pk: number; times: Float64Array };

async function side(dir: string, budgets: boolean): Promise<Side> {
  fs.mkdirSync(dir);
  const hub = openHub(dir);
  const work = path.join(dir, "work");
  fs.mkdirSync(work);
  await teamSpawn(hub, OPERATOR, TeamSpawnInput.parse({ team: TEAM, name: "dev" }), {
    workDir: work,
    sandbox: "bubblewrap",
    maxLive: 0,
    runtimes: TEST_RUNTIMES,
  });
  const pk = (await hub.db.read((sql) => findSession(sql, "dev")))!.pk;
  await markLaunched(hub, pk, { pid: 1, mode: "fresh", args: [], sandbox: "bubblewrap", dir: work });
  await createContract(hub, OPERATOR, CreateContractInput.parse({ team: TEAM, id: "work", title: "work", assignee: "dev" }));
  await startContract(hub, { name: "dev", kind: "member" }, ContractRefInput.parse({ team: TEAM, id: "work" }));
  if (budgets) {
    for (const b of [{ scope: "team" }, { scope: "member", target: "dev", period: "month" }, { scope: "contract", target: "work" }]) {
      await setBudget(hub, OPERATOR, SetBudgetInput.parse({ team: TEAM, amountUsd: 100_000, ...b }));
    }
  }
  const s: Side = { hub, pk, times: new Float64Array(TURNS) };
  for (let i = 0; i < HISTORY; i++) await turn(s, -1);
  return s;
}

async function turn(s: Side, i: number): Promise<void> {
  await sendMessage(s.hub, OPERATOR, SendInput.parse({ name: "dev", message: "go", wait: false }), 0);
  const t0 = performance.now();
  const started = await startNextTurn(s.hub, s.pk);
  check(started !== null, "the turn started");
  await finishTurn(s.hub, s.pk, {
    interactionId: started.id,
    status: "completed",
    isError: false,
    subtype: "success",
    response: "ok",
    error: null,
    costDelta: 0.01,
    turns: 1,
    durationMs: 1,
    toolsUsed: [],
    permissionDenials: [],
    empty: false,
  });
  if (i >= 0) s.times[i] = performance.now() - t0;
}

export default async function budget(): Promise<void> {
  await inTempDir(async (dir) => {
    const plain = await side(path.join(dir, "plain"), false);
    const budgeted = await side(path.join(dir, "budgeted"), true);
    try {
      for (let i = 0; i < TURNS; i++) {
        await turn(plain, i);
        await turn(budgeted, i);
      }
      const charged = budgeted.hub.sqlite.reader.getSync<{ n: number }>(
        `SELECT COUNT(*) AS n FROM "Interaction" WHERE "teamId" = ? AND "member" = 'dev' AND "contractId" = 'work'`,
        [TEAM],
      )!.n;
      check(charged === HISTORY + TURNS, `every turn charged to team, member and contract (${charged})`);
      const a = summarize(plain.times);
      const b = summarize(budgeted.times);
      console.log(
        `sessions.budget: ${TURNS} turns after ${HISTORY} earlier ones; start + finish with team, member and contract budgets p50 ${ms(b.p50)}, p99 ${ms(b.p99)} ` +
          `vs no budgets p50 ${ms(a.p50)}, p99 ${ms(a.p99)} (same run); added p50 ${ms(b.p50 - a.p50)}, p99 ${ms(b.p99 - a.p99)}`,
      );
    } finally {
      plain.hub.close();
      budgeted.hub.close();
    }
  });
}
