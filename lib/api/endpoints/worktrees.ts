import { endpoint } from "../endpoint.ts";
import {
  ChangesInput,
  ChangesView,
  CompareInput,
  CompareView,
  DiscardInput,
  DiscardResult,
  LeftBranchesInput,
  LeftBranchesView,
  MergeInput,
  MergeResult,
  OverlapsInput,
  OverlapsView,
} from "../worktrees.ts";
import { OutputInput, OutputView, RunInput, RunnableInput, RunnableState } from "../runnable.ts";

/** Work trees, their changes, merge and discard (docs/worktrees.md). */
export const worktrees = {
  changes: endpoint({ method: "GET", path: "/sessions/:name/changes", input: ChangesInput, output: ChangesView }),
  merge: endpoint({ method: "POST", path: "/sessions/:name/merge", input: MergeInput, output: MergeResult }),
  discard: endpoint({ method: "POST", path: "/sessions/:name/discard", input: DiscardInput, output: DiscardResult, effect: "destructive" }),
  overlaps: endpoint({ method: "GET", path: "/worktree-overlaps", input: OverlapsInput, output: OverlapsView }),
  /** Two runs' code: the diff from branch `a` to branch `b` (docs/worktrees.md#compare). */
  compare: endpoint({ method: "GET", path: "/worktree-compare", input: CompareInput, output: CompareView }),
  /** The team's hub-made branches no session works on: replays' first runs, deleted sessions' (docs/worktrees.md#left-branches). */
  leftBranches: endpoint({ method: "GET", path: "/worktree-left-branches", input: LeftBranchesInput, output: LeftBranchesView }),
  /** A session's runnable work tree: config, ports, setup and run state (docs/worktrees.md#runnable-work-trees). */
  runnable: endpoint({ method: "GET", path: "/sessions/:name/runnable", input: RunnableInput, output: RunnableState }),
  /** What its setup, run or archive command printed, after a piece id. */
  commandOutput: endpoint({ method: "GET", path: "/sessions/:name/command-output", input: OutputInput, output: OutputView }),
  /** Set up again, from the base branch's config: an ended session is resumed and runs setup before its queued turns. */
  setup: endpoint({ method: "POST", path: "/sessions/:name/setup", input: RunnableInput, output: RunnableState }),
  /** Start the run command (or stop it, `stop: true`). */
  run: endpoint({ method: "POST", path: "/sessions/:name/run", input: RunInput, output: RunnableState }),
};
