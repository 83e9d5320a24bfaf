/**
 * Sessions' git work trees over MCP (docs/worktrees.md): a session's changes, merge, discard, files two sessions
 * changed, and two runs' code compared.
 */
import { ChangesInput, CompareInput, DiscardInput, MergeInput, OverlapsInput } from "../../../lib/api/worktrees.ts";
import { tool } from "../tool.ts";
import { TEAM } from "./common.ts";

const NAME = "The session whose work tree it is.";
const BRANCH = "Another of the session's hub-made branches, e.g. the first run's after a replay (default: the one it works on now).";

export const worktreeTools = [
  tool({
    name: "session_changes",
    title: "A session's changes",
    description:
      "The session's changes against its base commit: committed, uncommitted and untracked files (ignored ones left out), each with +/- counts and hunks. " +
      "Only for sessions with a work tree of their own (isolation 'worktree').",
    schema: ChangesInput,
    describe: { name: NAME },
    kind: "read",
    run: (s, actor, input) => s.worktrees.changes(actor, input),
  }),
  tool({
    name: "session_merge",
    title: "Merge a session's work",
    description:
      "Merge the session's work (its uncommitted files included) into its base branch, as a merge commit or one squashed commit. Conflicts are computed first " +
      "(git merge-tree) and reported file by file without writing anything; dryRun only checks. Operator or team lead only.",
    schema: MergeInput,
    describe: {
      name: NAME,
      branch: BRANCH,
      mode: "merge (default): a merge commit; squash: one commit on the base branch.",
      message: "Commit message; default: prefilled from the session's contract and its last summary.",
      dryRun: "true: report conflicts and the message, change nothing.",
    },
    kind: "write",
    run: (s, actor, input) => s.worktrees.merge(actor, input),
  }),
  tool({
    name: "session_discard",
    title: "Discard a session's work",
    description:
      "Delete the session's branch and work tree for good. The session must not be running, unless `branch` names a branch it left (a replay's first run). " +
      "Needs confirm: true.",
    schema: DiscardInput,
    describe: { name: NAME, branch: BRANCH, confirm: "Must be true." },
    kind: "destructive",
    run: (s, actor, input) => s.worktrees.discard(actor, input),
  }),
  tool({
    name: "worktree_overlaps",
    title: "Files two sessions changed",
    description: "Files changed by two or more live sessions of the team, with who changed them: likely merge conflicts.",
    schema: OverlapsInput,
    describe: { team: TEAM },
    kind: "read",
    run: (s, actor, input) => s.worktrees.overlaps(actor, input),
  }),
  tool({
    name: "worktree_compare",
    title: "Compare two runs' code",
    description:
      "The diff from hub branch a's code to hub branch b's (both teamhub/<team>/… branches of one repository), e.g. a run and its replay " +
      "(teamhub/t/api-dev and teamhub/t/api-dev-replay-1): files with +/- counts and hunks. A side whose work tree exists is its files now, uncommitted work included.",
    schema: CompareInput,
    describe: { team: TEAM, a: "The branch compared from (the first run).", b: "The branch compared to (the replay)." },
    kind: "read",
    run: (s, actor, input) => s.worktrees.compare(actor, input),
  }),
];
