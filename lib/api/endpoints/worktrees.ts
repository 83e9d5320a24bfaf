import { endpoint } from "../endpoint.ts";
import {
  ChangesInput,
  ChangesView,
  CompareInput,
  CompareView,
  DiscardInput,
  DiscardResult,
  MergeInput,
  MergeResult,
  OverlapsInput,
  OverlapsView,
} from "../worktrees.ts";

/** Work trees, their changes, merge and discard (docs/worktrees.md). */
export const worktrees = {
  changes: endpoint({ method: "GET", path: "/sessions/:name/changes", input: ChangesInput, output: ChangesView }),
  merge: endpoint({ method: "POST", path: "/sessions/:name/merge", input: MergeInput, output: MergeResult }),
  discard: endpoint({ method: "POST", path: "/sessions/:name/discard", input: DiscardInput, output: DiscardResult }),
  overlaps: endpoint({ method: "GET", path: "/worktree-overlaps", input: OverlapsInput, output: OverlapsView }),
  /** Two runs' code: the diff from branch `a` to branch `b` (docs/worktrees.md#compare). */
  compare: endpoint({ method: "GET", path: "/worktree-compare", input: CompareInput, output: CompareView }),
};
