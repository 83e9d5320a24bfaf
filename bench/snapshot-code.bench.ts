/**
 * `snapshot-code`: what code in snapshots (docs/worktrees.md#code-in-snapshots) adds to taking one. Two teams with
 * the same coordination state (20 sessions, 20 contracts) in one run: one whose 20 sessions each have a work tree of a
 * 1,000-file repository with uncommitted edits (each snapshot checkpoints and pins all 20), one whose sessions share
 * the work dir (no code). p50 of 7 each, alternating; the summary line gives the time added and the ratio.
 */
import fs from "node:fs";
import path from "node:path";
import { CreateContractInput } from "../lib/api/contracts.ts";
import { SpawnInput } from "../lib/api/sessions.ts";
import { TakeSnapshotInput } from "../lib/api/snapshots.ts";
import { createContract } from "../server/domain/contracts/contracts.service.ts";
import { OPERATOR } from "../server/domain/principal.ts";
import { spawnSession } from "../server/domain/sessions/spawn.service.ts";
import { getSnapshot, takeSnapshot } from "../server/domain/snapshots/snapshots.service.ts";
import { check } from "./lib/check.ts";
import { plantRepo, timed } from "./lib/git-repo.ts";
import { median, ms } from "./lib/stats.ts";
import { inTempDir, openHub } from "./lib/temp-db.ts";
import { TEST_RUNTIMES } from "../server/testing/operations.ts";

const FILES = 1_000;
const TREES = 20;
const RUNS = 7;

export default async function snapshotCode(): Promise<void> {
  await inTempDir(async (dir) => {
    const repo = path.join(dir, "repo");
    plantRepo(repo, FILES, 20, (i) => `export const x${i} = ${i};\n`);
    const hub = openHub(dir);
    const defaults = { workDir: repo, sandbox: "bubblewrap" as const, maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(dir, "worktrees") };
    try {
      for (const [team, isolation] of [
        ["code", "worktree"],
        ["plain", "shared"],
      ] as const) {
        for (let i = 0; i < TREES; i++) {
          const s = await spawnSession(hub, OPERATOR, SpawnInput.parse({ team, name: `${team}-${i}`, isolation }), defaults);
          await createContract(hub, OPERATOR, CreateContractInput.parse({ team, id: `c${i}`, title: "Work", assignee: `${team}-${i}` }));
          if (isolation === "worktree") {
            // Uncommitted work in each: five edits and a new file, so every snapshot writes a checkpoint.
            for (let f = 0; f < 5; f++) fs.appendFileSync(path.join(s.workDir, "src", `d${f}`, `f${f}.ts`), `// ${s.name}\n`);
            fs.writeFileSync(path.join(s.workDir, `new-${i}.ts`), "export {};\n");
          }
        }
      }
      const withCode: number[] = [];
      const without: number[] = [];
      for (let i = -1; i < RUNS; i++) {
        const c = await timed(() => takeSnapshot(hub, OPERATOR, TakeSnapshotInput.parse({ team: "code", id: `code-${i + 1}` })));
        const p = await timed(() => takeSnapshot(hub, OPERATOR, TakeSnapshotInput.parse({ team: "plain", id: `plain-${i + 1}` })));
        if (i >= 0) {
          withCode.push(c);
          without.push(p);
        }
      }
      const snap = await getSnapshot(hub, { team: "code", id: "code-0" });
      check(snap.state.code?.length === TREES && snap.state.code.every((c) => c.checkpoint), `the snapshot records ${TREES} checkpointed work trees`);
      const c50 = median(withCode);
      const p50 = median(without);
      console.log(
        `snapshot-code: snapshot of a team with ${TREES} work trees (${FILES.toLocaleString("en")} files each, uncommitted edits) p50 ${ms(c50)} vs the same team state without code ${ms(p50)}; ` +
          `code adds ${ms(c50 - p50)} (${ms((c50 - p50) / TREES)} per work tree), ratio ${(c50 / p50).toFixed(1)}x`,
      );
    } finally {
      hub.close();
    }
  });
}
