/** `changes`, `merge`, `discard`, `overlaps`, `compare`, `left-branches`: sessions' git work trees (docs/worktrees.md). */
import type { Command } from "commander";
import {
  DiscardInput,
  MERGE_MODES,
  type ChangesView,
  type CompareView,
  type FileChange,
  type LeftBranchesView,
  type MergeResult,
} from "../../../lib/api/worktrees.ts";
import { action, type Ctx } from "../action.ts";
import { checkedOption, choiceOption } from "../options.ts";
import { nameOf } from "../session-options.ts";

const MARK = { added: "A", modified: "M", deleted: "D", type_changed: "T" } as const;

/** The file list with +/−, then (with --patch) each file's hunks as a unified diff: for changes and compare alike. */
function renderFiles(head: string, files: FileChange[], patch: boolean): string {
  const list = files.map((f) => `${MARK[f.change]} ${f.binary ? "(binary)" : `+${f.additions} −${f.deletions}`}\t${f.path}`);
  const hunks = patch
    ? files.flatMap((f) => [`--- ${f.path}`, ...f.hunks.flatMap((h) => [h.header, ...h.lines]), ...(f.truncated ? ["(cut: more lines than shown)"] : [])])
    : [];
  return [head, ...list, ...(hunks.length ? ["", ...hunks] : [])].join("\n");
}

const renderChanges = (c: ChangesView, patch: boolean) =>
  renderFiles(
    `${c.name}: ${c.worktree.branch} against ${c.worktree.baseBranch ?? "(detached)"} @ ${c.worktree.baseCommit.slice(0, 10)}` +
      `${c.uncommitted ? " (with uncommitted work)" : ""} — ${c.files.length} files, +${c.additions} −${c.deletions}`,
    c.files,
    patch,
  );

const side = (s: CompareView["a"]) => `${s.branch} @ ${s.head.slice(0, 10)}${s.uncommitted ? " with uncommitted work" : ""} (${s.session})`;

const renderCompare = (c: CompareView, patch: boolean) =>
  renderFiles(`${side(c.a)} → ${side(c.b)} — ${c.files.length} files, +${c.additions} −${c.deletions}`, c.files, patch);

const renderLeft = (v: LeftBranchesView) =>
  v.branches.length
    ? v.branches
        .map(
          (b) =>
            `${b.branch}\t${b.head ? b.head.slice(0, 10) : "(deleted outside the hub)"}\t${b.session}${b.sessionExists ? " (works on another branch)" : " (deleted)"}` +
            `${b.path ? "\twork tree kept" : ""}`,
        )
        .join("\n")
    : "every hub branch of the team is some session's current one";

const renderMerge = (r: MergeResult) =>
  r.outcome === "conflicts"
    ? `${r.name}: would conflict with ${r.baseBranch} in ${r.conflicts.map((c) => c.path).join(", ")}; nothing was written`
    : r.outcome === "clean"
      ? `${r.name}: merges cleanly into ${r.baseBranch} (${r.files} files)\n\n${r.message}`
      : `${r.name}: ${r.branch} ${r.mode === "squash" ? "squashed" : "merged"} into ${r.baseBranch} as ${r.commit!.slice(0, 10)} (${r.files} files)${r.branchDeleted ? "; branch deleted" : ""}`;

export function register(program: Command) {
  program
    .command("changes [session]")
    .description("the session's changes against its base: committed, uncommitted and untracked files, with +/− counts")
    .option("--name <name>")
    .option("--patch", "print every file's hunks too")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; patch?: boolean }>) => hub.worktrees.changes({ name: nameOf(args[0], opts.name) }),
        (c, opts) => renderChanges(c, opts.patch === true),
      ),
    );
  program
    .command("merge [session]")
    .description("merge the session's work into its base branch (conflicts are reported file by file before anything is written)")
    .option("--name <name>")
    .option("--branch <branch>", "another of the session's branches: the first run's after a replay (default: its current one)")
    .option("--mode <mode>", "merge (a merge commit, default) | squash (one commit)")
    .option("--message <text>", "the commit message (default: from the session's contract and summary)")
    .option("--dry-run", "only check: report conflicts and the message")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; branch?: string; mode?: string; message?: string; dryRun?: boolean }>) =>
          hub.worktrees.merge({
            name: nameOf(args[0], opts.name),
            branch: opts.branch,
            mode: choiceOption("--mode", MERGE_MODES, opts.mode),
            message: opts.message,
            dryRun: opts.dryRun === true,
          }),
        renderMerge,
      ),
    );
  program
    .command("discard [session]")
    .description("delete the session's branch and work tree for good (the session must not be running)")
    .option("--name <name>")
    .option("--branch <branch>", "another of the session's branches: the first run's after a replay (default: its current one)")
    .option("--confirm", "required: yes, throw the work away")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; branch?: string; confirm?: boolean }>) =>
          hub.worktrees.discard({
            name: nameOf(args[0], opts.name),
            branch: opts.branch,
            confirm: checkedOption("--confirm", DiscardInput.shape.confirm, opts.confirm === true),
          }),
        (r) =>
          `${r.name}: ${r.branchDeleted ? `branch ${r.branch} deleted` : `branch ${r.branch} was gone already`}${r.worktreeRemoved ? ", work tree removed" : ""}`,
      ),
    );
  program
    .command("overlaps")
    .description("files changed by two or more live sessions of the team")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.worktrees.overlaps({}),
        (o) =>
          o.files.length
            ? o.files.map((f) => `${f.path}\t${f.sessions.join(", ")}`).join("\n")
            : `no file is changed by two live sessions (${o.sessions.length} compared)`,
      ),
    );
  program
    .command("compare <a> <b>")
    .description("two runs' code: the diff from hub branch a to hub branch b of the team (a run and its replay)")
    .option("--patch", "print every file's hunks too")
    .action(
      action(
        ({ hub, args }: Ctx<{ patch?: boolean }>) => hub.worktrees.compare({ a: args[0], b: args[1] }),
        (c, opts) => renderCompare(c, opts.patch === true),
      ),
    );
  program
    .command("left-branches")
    .description("the team's hub branches no session works on: replays' first runs, deleted sessions' unmerged work (merge or discard them with --branch)")
    .action(action(({ hub }: Ctx<object>) => hub.worktrees.leftBranches({}), renderLeft));
}
