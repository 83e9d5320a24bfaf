/**
 * A crash between `git worktree add` and the spawning transaction, simulated with git itself: a work-tree dir under
 * the data dir and a branch that no Worktree row knows. The next start of the hub removes the dir, and the branch
 * when it holds no work (docs/worktrees.md#crash-safety).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { tempDir } from "../server/testing/temp-dir.ts";
import { GRACE_MS } from "../server/domain/worktrees/sweep.ts";
import { startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";
import { workTree } from "./helpers/work-tree.ts";

let hub: HubProcess | undefined;
afterAll(async () => hub?.kill());

it("sweeps a crash-left work tree at start: the dir goes, an empty branch goes, a branch with work stays", async () => {
  const dataDir = tempDataDir("sweep");
  const repo = workTree(tempDir("sweep-repo"));
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "start\n");
  repo.commit("start");
  const worktrees = path.join(dataDir, "worktrees");
  fs.mkdirSync(worktrees, { recursive: true });
  const stray = (key: string, branch: string) => {
    const dir = path.join(worktrees, key);
    repo.git("worktree", "add", "-q", "-b", branch, dir, "main");
    return dir;
  };
  const lost = stray("crashed-1", "teamhub/t/lost");
  const busy = stray("crashed-2", "teamhub/t/busy");
  fs.writeFileSync(path.join(busy, "app.txt"), "written before the crash\n");
  const old = (Date.now() - 2 * GRACE_MS) / 1000;
  for (const d of [lost, busy]) fs.utimesSync(d, old, old);

  hub = await startHub(dataDir);
  // Both stray dirs are gone.
  await expect.poll(() => [fs.existsSync(lost), fs.existsSync(busy)], { timeout: 30_000 }).toEqual([false, false]);
  expect(repo.git("branch", "--list", "teamhub/*").replace(/[*+ ]/g, "")).toBe("teamhub/t/busy");
  expect(repo.git("show", "teamhub/t/busy:app.txt")).toBe("written before the crash");
  expect(repo.worktrees()).toHaveLength(1);
  expect(hub.log()).toContain("teamhub/t/busy");
});
