/** team-snapshot, -snapshot-list, -snapshot-delete, -rollback, -replay and -snapshot-diff (docs/domain.md#snapshots). */
import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import { DIFF_KINDS, type RewindPreview, type RewindSummary, type StateDiff } from "../../../lib/api/snapshots.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption, jsonOrFile } from "../options.ts";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function renderDiff(d: StateDiff): string {
  const lines = [`${d.a} → ${d.b}`];
  for (const kind of DIFF_KINDS) {
    const k = d[kind];
    if (!k.added.length && !k.removed.length && !k.changed.length) continue;
    lines.push(`${kind}:`);
    for (const e of k.added) lines.push(`  + ${e.id}`);
    for (const e of k.removed) lines.push(`  - ${e.id}`);
    for (const c of k.changed) for (const [field, ch] of Object.entries(c.fields)) lines.push(`  ~ ${c.id}.${field}: ${show(ch.old)} → ${show(ch.new)}`);
  }
  return lines.length === 1 ? `${lines[0]}: no differences` : lines.join("\n");
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
const listed = (shown: string[], total: number, max = 10) => (shown.length ? ` (${shown.slice(0, max).join(", ")}${total > max ? ", …" : ""})` : "");

/** A rollback or replay, done or previewed: the same summary, told in the past or the conditional. */
function rewound(verb: "rolled back" | "replayed", r: RewindSummary | RewindPreview): string {
  const head =
    "autoSnapshot" in r
      ? `${verb} team '${r.team}' to snapshot ${r.snapshot} (undo with: teamhub team-rollback ${r.autoSnapshot})`
      : `dry run, nothing written: ${verb === "replayed" ? "replaying" : "rolling back"} team '${r.team}' to snapshot ${r.snapshot} would`;
  const gone = (e: RewindSummary["removed"]) =>
    `${plural(e.contractsCount, "contract")}${listed(e.contracts, e.contractsCount)}, ${plural(e.pipelinesCount, "pipeline")}${listed(e.pipelines, e.pipelinesCount)}`;
  return [
    head,
    r.reRunCount || verb === "replayed" ? `  re-run: ${plural(r.reRunCount, "contract")}` : "",
    ...r.reRun.map(
      (x) => `    ${x.id} (${x.assignee}): ${x.from ?? "(new)"} → ${x.to}, ${x.because}${x.waitsFor.length ? `; waits for ${x.waitsFor.join(", ")}` : ""}`,
    ),
    `  versions rolled back: ${r.rolledBackCount}${listed(r.rolledBackVersions, r.rolledBackCount)}`,
    r.reactivatedCount ? `  versions active again: ${r.reactivatedCount}${listed(r.reactivatedVersions, r.reactivatedCount)}` : "",
    r.removed.contractsCount || r.removed.pipelinesCount ? `  removed: ${gone(r.removed)}` : "",
    r.restored.contractsCount || r.restored.pipelinesCount ? `  restored: ${gone(r.restored)}` : "",
    r.pipelinesChanged.length ? `  pipelines changed: ${r.pipelinesChanged.join(", ")}` : "",
    `  contracts changed: ${r.contractsChangedCount}; members notified: ${r.membersNotified}`,
    ...Object.entries(r.overridden).map(([id, fields]) => `  override ${id}: ${Object.keys(fields).join(", ")}`),
  ]
    .filter(Boolean)
    .join("\n");
}

export function register(program: Command) {
  program
    .command("team-snapshot [id]")
    .description("capture the team's coordination state (pointers only; cheap)")
    .option("--label <text>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ label?: string }>) => hub.snapshots.take({ id: args[0], label: opts.label }),
        (s) => `snapshot ${s.id} of team '${s.team}': ${s.counts.contracts} contracts, ${s.counts.artifacts} artifacts, ${s.size} bytes`,
      ),
    );
  program
    .command("team-snapshot-list")
    .description("snapshots, newest first")
    .option("--limit <n>")
    .action(
      action(
        ({ hub, opts }: Ctx<{ limit?: string }>) => hub.snapshots.list({ limit: intOption("--limit", opts.limit) }),
        (r) =>
          table(
            r.items.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), contracts: s.counts.contracts, artifacts: s.counts.artifacts })),
            ["id", "kind", "label", "createdAt", "contracts", "artifacts", "size"],
          ),
      ),
    );
  program
    .command("team-snapshot-delete <id>")
    .description("delete a snapshot (artifact versions are never affected)")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.snapshots.delete({ id: args[0] }),
        (r) => `deleted snapshot ${r.id}`,
      ),
    );
  const DRY_RUN = "show what it would do, writing nothing";
  program
    .command("team-rollback <id>")
    .description("restore contracts, pipelines, roster and gate state; later versions become rolled_back (kept)")
    .option("--dry-run", DRY_RUN)
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ dryRun?: boolean }>) => (opts.dryRun ? hub.snapshots.rollbackPreview : hub.snapshots.rollback)({ id: args[0] }),
        (r) => rewound("rolled back", r),
      ),
    );
  program
    .command("team-replay <id>")
    .description("roll back, apply overrides {contractId: {inputs?, assignee?, title?}}, and re-run the overridden contracts and everything downstream of them")
    .option("--overrides <json|file>", "the overrides, inline JSON or a file")
    .option("--dry-run", DRY_RUN)
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ overrides?: string; dryRun?: boolean }>) =>
          (opts.dryRun ? hub.snapshots.replayPreview : hub.snapshots.replay)(
            asTyped(api.snapshots.replay, { id: args[0], overrides: jsonOrFile("--overrides", opts.overrides) }),
          ),
        (r) => rewound("replayed", r),
      ),
    );
  program
    .command("team-snapshot-diff <a> [b]")
    .description("what changed between two snapshots, or a snapshot and the current state (b defaults to current)")
    .action(action(({ hub, args }: Ctx<object>) => hub.snapshots.diff({ a: args[0], b: args[1] }), renderDiff));
}
