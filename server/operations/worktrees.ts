/** Sessions' git work trees (docs/worktrees.md): their changes, merge and discard, overlaps, compared runs, and runnable work trees. */
import { overlaps, sessionChanges } from "../domain/worktrees/changes.service.ts";
import { discardSession, mergeSession } from "../domain/worktrees/merge.service.ts";
import { compareBranches } from "../domain/worktrees/compare.service.ts";
import { leftBranches } from "../domain/worktrees/left-branches.ts";
import { processOutput, requestRun, rerunSetup, runnableState } from "../domain/worktrees/runnable.service.ts";
import { area } from "./define.ts";
import { TEAM } from "./fields.ts";

const NAME = "The session whose work tree it is.";
const BRANCH = "Another of the session's hub-made branches, e.g. the first run's after a replay (default: the one it works on now).";

export const worktrees = area("worktrees", {
  changes: {
    may: "session.read",
    serve: ({ deps }, a, i) => sessionChanges(deps, a, i),
    mcp: {
      name: "session_changes",
      title: "A session's changes",
      description:
        "The session's changes against its base commit: committed, uncommitted and untracked files (ignored ones left out), each with +/- counts and hunks. " +
        "Only for sessions with a work tree of their own (isolation 'worktree').",
      describe: { name: NAME },
    },
  },
  merge: {
    may: "worktree.merge",
    serve: ({ deps }, a, i) => mergeSession(deps, a, i),
    mcp: {
      name: "session_merge",
      title: "Merge a session's work",
      description:
        "Merge the session's work (its uncommitted files included) into its base branch, as a merge commit or one squashed commit. Conflicts are computed first " +
        "(git merge-tree) and reported file by file without writing anything; dryRun only checks. Operator or team lead only.",
      describe: {
        name: NAME,
        branch: BRANCH,
        mode: "merge (default): a merge commit; squash: one commit on the base branch.",
        message: "Commit message; default: prefilled from the session's contract and its last summary.",
        dryRun: "true: report conflicts and the message, change nothing.",
      },
    },
  },
  discard: {
    may: "worktree.discard",
    serve: ({ deps }, a, i) => discardSession(deps, a, i),
    mcp: {
      name: "session_discard",
      title: "Discard a session's work",
      description:
        "Delete the session's branch and work tree for good. The session must not be running, unless `branch` names a branch it left (a replay's first run). " +
        "Needs confirm: true.",
      describe: { name: NAME, branch: BRANCH, confirm: "Must be true." },
    },
  },
  overlaps: {
    may: "member",
    serve: ({ deps }, _, i) => overlaps(deps, i),
    mcp: {
      name: "worktree_overlaps",
      title: "Files two sessions changed",
      description: "Files changed by two or more live sessions of the team, with who changed them: likely merge conflicts.",
      describe: { team: TEAM },
    },
  },
  compare: {
    may: "session.read",
    serve: ({ deps }, a, i) => compareBranches(deps, a, i),
    mcp: {
      name: "worktree_compare",
      title: "Compare two runs' code",
      description:
        "The diff from hub branch a's code to hub branch b's (both teamhub/<team>/… branches of one repository), e.g. a run and its replay " +
        "(teamhub/t/api-dev and teamhub/t/api-dev-replay-1): files with +/- counts and hunks. A side whose work tree exists is its files now, uncommitted work included.",
      describe: { team: TEAM, a: "The branch compared from (the first run).", b: "The branch compared to (the replay)." },
    },
  },
  leftBranches: {
    may: "member",
    serve: ({ deps }, _, i) => leftBranches(deps, i),
    mcp: {
      name: "worktree_left_branches",
      title: "Branches no session works on",
      description:
        "The team's hub-made branches that no session works on now, newest first: a replay's first run (its session works on the replay's branch) " +
        "and deleted sessions' unmerged work. Each names its session (merge and discard take it with `branch`) and its tip; compare one with worktree_compare.",
      describe: { team: TEAM },
    },
  },
  /** Runnable work trees (docs/worktrees.md#runnable-work-trees). */
  runnable: {
    may: "session.read",
    serve: ({ deps }, a, i) => runnableState(deps, a, i),
    mcp: {
      name: "session_runnable",
      title: "A session's runnable work tree",
      description:
        "The session's work-tree config (teamhub.json worktree: setup, run, archive, ports), the gitignored files copied in (.worktreeinclude), " +
        "its ports (PORT is the first), and the state of its setup and run commands.",
      describe: { name: NAME },
    },
  },
  commandOutput: {
    may: "session.read",
    serve: ({ deps }, a, i) => processOutput(deps, a, i),
    mcp: {
      name: "session_command_output",
      title: "Setup, run or archive output",
      description: "What the session's setup, run or archive command printed, in pieces; pass the last piece's id as `after` to read on.",
      describe: { name: NAME, kind: "setup (default), run or archive.", after: "Only pieces with a greater id." },
    },
  },
  setup: {
    may: "session.resume",
    serve: ({ deps, info }, a, i) => rerunSetup(deps, a, i, info.maxLiveSessions),
    mcp: {
      name: "session_setup",
      title: "Set a work tree up again",
      description:
        "Run the session's setup again with the config read anew from its base branch (a fix merged there applies). The session must be ended " +
        "(a failed setup ends it); it is resumed and its queued turns go once setup succeeds.",
      describe: { name: NAME },
    },
  },
  run: {
    may: "session.send",
    serve: ({ deps }, a, i) => requestRun(deps, a, i),
    mcp: {
      name: "session_run",
      title: "Start or stop a work tree's run command",
      description:
        "Start the repository's run command (teamhub.json worktree.run, e.g. a dev server on $PORT) in the session's work tree while the session runs; " +
        "stop: true stops it. It also stops with the session.",
      describe: { name: NAME, stop: "true: stop it instead." },
    },
  },
});
