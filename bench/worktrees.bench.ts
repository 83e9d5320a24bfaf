/**
 * `worktrees`: the git work trees of docs/worktrees.md, in the domain over a real repository.
 * - creation and removal for a repository of 10,000 files: a spawn with `isolation: worktree` plus the
 *   session's delete and prune, against plain `git worktree add` + `git worktree remove` in the same run
 *   (p50 of 7 each, alternating; target < 1 s);
 * - changes of a session with 1,000 changed files (the domain call the API makes), against the two
 *   `git diff` runs it is built on (p50 of 7; target < 1 s).
 */
import fs from "node:fs";
import path from "node:path";
import { SpawnInput } from "../lib/api/sessions.ts";
import { OPERATOR } from "../server/domain/principal.ts";
import { deleteSession } from "../server/domain/sessions/control.service.ts";
import { spawnSession } from "../server/domain/sessions/spawn.service.ts";
import { sessionChanges } from "../server/domain/worktrees/changes.service.ts";
import { pruneDeletedWorktrees } from "../server/domain/worktrees/prune.ts";
import { check } from "./lib/check.ts";
import { git, plantRepo, timed } from "./lib/git-repo.ts";
import { median, ms, target } from "./lib/stats.ts";
import { inTempDir, openHub } from "./lib/temp-db.ts";
import { TEST_RUNTIMES } from "../server/testing/operations.ts";

const FILES = 10_000;
const CHANGED = 1_000;
const RUNS = 7;

export default async function worktrees(): Promise<void> {
  await inTempDir(async (dir) => {
    const repo = path.join(dir, "repo");
    plantRepo(repo, FILES, 100, (i) => `export const x${i} = ${i};\nexport const y${i} = "${"y".repeat(40)}";\n`);
    const hub = openHub(dir);
    const defaults = { workDir: repo, sandbox: "bubblewrap" as const, maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(dir, "worktrees") };
    try {
      const hubTimes: number[] = [];
      const gitTimes: number[] = [];
      for (let i = -1; i < RUNS; i++) {
        const name = `s${i + 1}`;
        const t = await timed(async () => {
          const s = await spawnSession(hub, OPERATOR, SpawnInput.parse({ team: "bench", name, isolation: "worktree" }), defaults);
          check(fs.existsSync(path.join(s.workDir, "src", "d0", "f0.ts")), "the work tree is checked out");
          await deleteSession(hub, OPERATOR, { name });
          check((await pruneDeletedWorktrees(hub)) === 1, "the deleted session's work tree is pruned");
        });
        const plain = path.join(dir, `plain-${i + 1}`);
        const g = await timed(() => {
          git(repo, "worktree", "add", "-q", "-b", `plain-${i + 1}`, plain, "main");
          git(repo, "worktree", "remove", "--force", plain);
          git(repo, "branch", "-D", `plain-${i + 1}`);
        });
        if (i >= 0) {
          hubTimes.push(t);
          gitTimes.push(g);
        }
      }
      const p50 = median(hubTimes);
      console.log(
        `worktrees.lifecycle: work tree creation + removal (spawn, delete, prune) for ${FILES.toLocaleString("en")} files p50 ${ms(p50)} vs plain git worktree add/remove ${ms(median(gitTimes))}; ` +
          `ratio ${(p50 / median(gitTimes)).toFixed(2)}x ${target("< 1 s", p50 < 1000)}`,
      );

      const s = await spawnSession(hub, OPERATOR, SpawnInput.parse({ team: "bench", name: "changer", isolation: "worktree" }), defaults);
      for (let i = 0; i < CHANGED; i++) {
        const f = path.join(s.workDir, "src", `d${i % 100}`, `f${i}.ts`);
        fs.writeFileSync(f, `${fs.readFileSync(f, "utf8")}export const z${i} = ${i};\n`);
      }
      const apiTimes: number[] = [];
      const diffTimes: number[] = [];
      const base = s.worktree!.baseCommit;
      for (let i = -1; i < RUNS; i++) {
        let files = 0;
        const t = await timed(async () => (files = (await sessionChanges(hub, OPERATOR, { name: "changer" })).files.length));
        check(files === CHANGED, `changes lists ${CHANGED} files (got ${files})`);
        const g = await timed(() => {
          git(s.workDir, "diff", "--numstat", base);
          git(s.workDir, "diff", base);
        });
        if (i >= 0) {
          apiTimes.push(t);
          diffTimes.push(g);
        }
      }
      const c50 = median(apiTimes);
      console.log(
        `worktrees.changes: changes of a session with ${CHANGED.toLocaleString("en")} changed files p50 ${ms(c50)} vs plain git diff (numstat + patch) ${ms(median(diffTimes))}; ` +
          `ratio ${(c50 / median(diffTimes)).toFixed(2)}x ${target("< 1 s", c50 < 1000)}`,
      );
    } finally {
      hub.close();
    }
  });
}
