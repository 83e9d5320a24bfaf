/** team-snapshot, -snapshot-list, -snapshot-delete, -rollback, -replay and -snapshot-diff (docs/domain.md#snapshots). */
import type { Command } from "commander";
import type { StateDiff } from "../../domain/snapshots/diff.ts";
import type { RewindPreview, RewindSummary } from "../../../lib/api/snapshots.ts";
import type { SnapshotMeta } from "../../domain/snapshots/snapshot-store.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";
import { intOption, jsonOrFile } from "../options.ts";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function renderDiff(d: StateDiff & { a: string; b: string }): string {
  const lines = [`${d.a} → ${d.b}`];
  for (const kind of ["contracts", "artifacts", "pipelines", "roster"] as const) {
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
    ...Object.entries(r.overridden ?? {}).map(([id, fields]) => `  override ${id}: ${Object.keys(fields as object).join(", ")}`),
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
      action<{ label?: string }, SnapshotMeta>(
        ({ target, team, opts, args }) => call(target, "POST", "/snapshots", { query: { team }, body: { id: args[0], label: opts.label } }),
        (s) => `snapshot ${s.id} of team '${s.team}': ${s.counts.contracts} contracts, ${s.counts.artifacts} artifacts, ${s.size} bytes`,
      ),
    );
  program
    .command("team-snapshot-list")
    .description("snapshots, newest first")
    .option("--limit <n>")
    .action(
      action<{ limit?: string }, { items: SnapshotMeta[] }>(
        ({ target, team, opts }) => call(target, "GET", "/snapshots", { query: { team, limit: intOption("--limit", opts.limit) } }),
        (r) =>
          table(
            r.items.map((s) => ({ ...s, createdAt: new Date(s.createdAt).toISOString(), contracts: s.counts.contracts, artifacts: s.counts.artifacts })),
            ["id", "kind", "label", "createdAt", "contracts", "artifacts", "size"],
          ),
      ),
    );
  program
    .command("team-snapshot-delete <id>")
    .description("delete a snapshot (artifact versions are never affected)")
    .action(
      action<object, { id: string }>(
        ({ target, team, args }) => call(target, "DELETE", `/snapshots/${encodeURIComponent(args[0])}`, { query: { team } }),
        (r) => `deleted snapshot ${r.id}`,
      ),
    );
  const DRY_RUN = "show what it would do, writing nothing";
  const route = (id: string, what: "rollback" | "replay", dryRun?: boolean) => `/snapshots/${encodeURIComponent(id)}/${what}${dryRun ? "/preview" : ""}`;
  program
    .command("team-rollback <id>")
    .description("restore contracts, pipelines, roster and gate state; later versions become rolled_back (kept)")
    .option("--dry-run", DRY_RUN)
    .action(
      action<{ dryRun?: boolean }, RewindSummary | RewindPreview>(
        ({ target, team, opts, args }) => call(target, "POST", route(args[0], "rollback", opts.dryRun), { query: { team } }),
        (r) => rewound("rolled back", r),
      ),
    );
  program
    .command("team-replay <id>")
    .description("roll back, apply overrides {contractId: {inputs?, assignee?, title?}}, and re-run the overridden contracts and everything downstream of them")
    .option("--overrides <json|file>", "the overrides, inline JSON or a file")
    .option("--dry-run", DRY_RUN)
    .action(
      action<{ overrides?: string; dryRun?: boolean }, RewindSummary | RewindPreview>(
        ({ target, team, opts, args }) =>
          call(target, "POST", route(args[0], "replay", opts.dryRun), { query: { team }, body: { overrides: jsonOrFile("--overrides", opts.overrides) } }),
        (r) => rewound("replayed", r),
      ),
    );
  program
    .command("team-snapshot-diff <a> [b]")
    .description("what changed between two snapshots, or a snapshot and the current state (b defaults to current)")
    .action(
      action<object, StateDiff & { a: string; b: string }>(
        ({ target, team, args }) => call(target, "GET", "/snapshots/diff", { query: { team, a: args[0], b: args[1] } }),
        renderDiff,
      ),
    );
}
