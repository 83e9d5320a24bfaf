/**
 * Work trees, changes, merge and discard (docs/worktrees.md). Every door (HTTP, MCP, CLI) parses with these.
 */
import { z } from "zod";
import { MemberName as SessionName } from "../ids.ts";
import { Flag, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const ISOLATIONS = ["worktree", "shared"] as const;
/** worktree: a git work tree and branch of its own; shared: the work dir as it is. */
export const Isolation = z.enum(ISOLATIONS, { error: `must be one of ${ISOLATIONS.join(", ")}` });
export type Isolation = z.infer<typeof Isolation>;

/** A local branch of the work dir's repository to start from (default: the branch checked out there). */
export const BaseBranch = z
  .string({ error: "must be a string" })
  .regex(/^(?!.*\.\.)(?!-)[A-Za-z0-9._/-]{1,200}$/, { error: "must be a branch name such as 'main' or 'release/1.2'" });

/** The fields spawn, batch, team_spawn and delegate accept. */
export const IsolationFields = { isolation: Isolation.optional(), base: BaseBranch.optional() };

export const MERGE_MODES = ["merge", "squash"] as const;
export const MergeMode = z.enum(MERGE_MODES, { error: `must be one of ${MERGE_MODES.join(", ")}` });

export const ChangesInput = z
  .object({
    name: SessionName,
    /** The changes up to this commit (an artifact version's code) instead of the work tree's files now. */
    at: z
      .string({ error: "must be a string" })
      .regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, { error: "must be a full commit id (40 or 64 hex digits)" })
      .optional(),
  })
  .strict();
export type ChangesInput = z.infer<typeof ChangesInput>;

/**
 * One hub-made branch of the session other than the one it works on now: the first run's after a replay, which has
 * lost its session (docs/worktrees.md#code-in-snapshots). Left out: the session's current branch.
 */
const SessionBranch = BaseBranch.optional();

export const MergeInput = z
  .object({
    name: SessionName,
    branch: SessionBranch,
    /** merge: a merge commit with the session's branch as second parent; squash: one commit on the base branch. */
    mode: MergeMode.default("merge"),
    /** Default: prefilled from the session's contract and its last summary (`dryRun` shows it). */
    message: z.string().min(1, { error: "must not be empty" }).max(20_000).optional(),
    /** Check only: report conflicts and the message, change nothing. */
    dryRun: Flag.default(false),
  })
  .strict();
export type MergeInput = z.infer<typeof MergeInput>;

export const DiscardInput = z
  .object({
    name: SessionName,
    branch: SessionBranch,
    confirm: z.literal(true, { error: "must be true: discarding deletes the session's branch and work tree for good" }),
  })
  .strict();
export type DiscardInput = z.infer<typeof DiscardInput>;

export const OverlapsInput = z.object({ team: TeamParam }).strict();
export type OverlapsInput = z.infer<typeof OverlapsInput>;

// ── Responses ──

/** The work tree a session works in, on every session view; null for a shared session. */
export const WorktreeRef = z.object({
  branch: z.string(),
  baseBranch: z.string().nullable(),
  baseCommit: z.string(),
  /** Null once the session was deleted (its work tree pruned; the branch stays until merged or discarded). */
  path: z.string().nullable(),
});
export type WorktreeRef = z.output<typeof WorktreeRef>;

export const Hunk = z.object({
  /** `@@ -12,7 +12,9 @@ function name` */
  header: z.string(),
  oldStart: z.number().int(),
  oldLines: z.number().int(),
  newStart: z.number().int(),
  newLines: z.number().int(),
  /** Each line with its marker: ' ' context, '+' added, '-' removed, '\\' "No newline at end of file". */
  lines: z.array(z.string()),
});
export type Hunk = z.output<typeof Hunk>;

export const FILE_CHANGES = ["added", "modified", "deleted", "type_changed"] as const;

export const FileChange = z.object({
  path: z.string(),
  change: z.enum(FILE_CHANGES),
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
  hunks: z.array(Hunk),
  /** The file's hunks were cut at the per-file line limit; the counts are whole. */
  truncated: z.boolean(),
});
export type FileChange = z.output<typeof FileChange>;

/** A session's work against its base: committed and uncommitted (untracked files included), as one diff. */
export const ChangesView = z.object({
  name: z.string(),
  worktree: WorktreeRef,
  /** The branch tip; with `uncommitted`, the diff is taken to the work tree's files (untracked ones too), not to it. */
  head: z.string(),
  uncommitted: z.boolean(),
  files: z.array(FileChange),
  additions: z.number().int(),
  deletions: z.number().int(),
});
export type ChangesView = z.output<typeof ChangesView>;

export const MergeConflict = z.object({ path: z.string() });

export const MergeResult = z.object({
  name: z.string(),
  /** The session's branch that was merged (or checked). */
  branch: z.string(),
  mode: MergeMode,
  /** merged: the base branch now holds the work; clean: a dry run found no conflict; conflicts: nothing was written. */
  outcome: z.enum(["merged", "clean", "conflicts"]),
  baseBranch: z.string(),
  message: z.string(),
  /** The new tip of the base branch; null unless merged. */
  commit: z.string().nullable(),
  conflicts: z.array(MergeConflict),
  files: z.number().int(),
  /** The session's branch was deleted with the merge (its session and work tree were gone already). */
  branchDeleted: z.boolean(),
  at: IsoDate,
});
export type MergeResult = z.output<typeof MergeResult>;

export const DiscardResult = z.object({ name: z.string(), branch: z.string(), worktreeRemoved: z.boolean(), branchDeleted: z.boolean() });
export type DiscardResult = z.output<typeof DiscardResult>;

/** Files changed by more than one live session of a team, with who changed them. */
export const OverlapsView = z.object({
  team: z.string(),
  files: z.array(z.object({ repoDir: z.string(), path: z.string(), sessions: z.array(z.string()) })),
  /** Live work-tree sessions whose changes were compared. */
  sessions: z.array(z.string()),
});
export type OverlapsView = z.output<typeof OverlapsView>;

/**
 * A hub-made branch no session works on now (docs/worktrees.md#left-branches): the first run's after a replay, or a
 * deleted session's, kept until it is merged or discarded by the session's name with `branch`.
 */
export const LeftBranch = z.object({
  branch: z.string(),
  /** The session it was made for; merge and discard take this name with `branch`. */
  session: z.string(),
  /** A session of that name exists and works on another branch (a replay's); false: the session was deleted. */
  sessionExists: z.boolean(),
  repoDir: z.string(),
  baseBranch: z.string().nullable(),
  baseCommit: z.string(),
  /** The branch tip; null when the branch was deleted outside the hub. */
  head: z.string().nullable(),
  /** Its work tree while it has one (a deleted session's, until the prune); null once pruned, and for a replay's first run. */
  path: z.string().nullable(),
  createdAt: IsoDate,
});
export type LeftBranch = z.output<typeof LeftBranch>;

export const LeftBranchesInput = z.object({ team: TeamParam }).strict();
export type LeftBranchesInput = z.infer<typeof LeftBranchesInput>;

/** Newest first. */
export const LeftBranchesView = z.object({ team: z.string(), branches: z.array(LeftBranch) });
export type LeftBranchesView = z.output<typeof LeftBranchesView>;

// ── Code in lineage and snapshots (docs/worktrees.md#code-in-the-lineage) ──

/** A full commit id (SHA-1, or SHA-256 in a repository that uses it). */
export const CommitId = z
  .string({ error: "must be a string" })
  .regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, { error: "must be a full commit id (40 or 64 hex digits)" });

/**
 * The code an artifact version was published from: its publisher's work tree at publish time.
 * `checkpoint`: the work was uncommitted and saved as a commit on the private ref `refs/teamhub/checkpoints/<commit>`.
 */
export const CodeRef = z.object({
  session: z.string(),
  branch: z.string(),
  commit: z.string(),
  checkpoint: z.boolean(),
  /** The session's changes up to that commit: `GET` this path (its base → the commit). */
  changes: z.string(),
});
export type CodeRef = z.output<typeof CodeRef>;

/** One work tree as a snapshot records it: the commit its files made at capture (pinned on a private ref). */
export const CodeState = z.object({
  session: z.string(),
  branch: z.string(),
  repoDir: z.string(),
  commit: z.string(),
  checkpoint: z.boolean(),
});
export type CodeState = z.output<typeof CodeState>;

export const CODE_ACTIONS = ["restored", "branched", "switched", "unchanged", "missing"] as const;
/**
 * What a rollback or replay did to one work tree the snapshot recorded. restored: its files are the snapshot's again
 * (branch and HEAD unchanged); branched (replay, a re-run contract's assignee): a new branch from the snapshot's
 * commit, the earlier run's work kept on the old one; switched (the undo of a replay): the session is back on the
 * branch the snapshot recorded, the work it leaves kept on `previousBranch`; unchanged: the files were the snapshot's
 * already; missing: the session or its work tree is gone, nothing was done.
 */
export const CodeMove = z.object({
  session: z.string(),
  action: z.enum(CODE_ACTIONS),
  /** The snapshot's commit for this work tree. */
  commit: z.string(),
  /** The branch the session works on afterwards (the new one when branched). */
  branch: z.string(),
  /** branched, switched: the branch the session left, which keeps the work done on it. */
  previousBranch: z.string().nullable(),
});
export type CodeMove = z.output<typeof CodeMove>;

/** Two hub-made branches of one team, e.g. a first run and its replay. */
export const CompareInput = z.object({ team: TeamParam, a: BaseBranch, b: BaseBranch }).strict();
export type CompareInput = z.infer<typeof CompareInput>;

const CompareSide = z.object({
  branch: z.string(),
  session: z.string(),
  /** The branch tip; with `uncommitted`, the side is the work tree's current files. */
  head: z.string(),
  uncommitted: z.boolean(),
});

/** The diff from side `a`'s code to side `b`'s. */
export const CompareView = z.object({
  team: z.string(),
  repoDir: z.string(),
  a: CompareSide,
  b: CompareSide,
  files: z.array(FileChange),
  additions: z.number().int(),
  deletions: z.number().int(),
});
export type CompareView = z.output<typeof CompareView>;
