/** decision-record and decision-list: the decision journal (docs/domain.md#continuity). */
import type { Command } from "commander";
import type { DecisionView } from "../../../lib/api/continuity.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { collect, intOption, repeatable } from "../options.ts";

type RecordOpts = { decision: string; rationale?: string; alternative?: string[]; artifact?: string[]; contract?: string[] };
type ListOpts = { since?: string; after?: string; artifact?: string; contract?: string; limit?: string; cursor?: string };

function show(d: DecisionView): string {
  const related = [...d.related.artifacts.map((a) => `artifact ${a}`), ...d.related.contracts.map((c) => `contract ${c}`)];
  return [
    `#${d.id} ${d.title} (${d.author}, ${d.createdAt.toISOString()})`,
    `  ${d.decision}`,
    d.rationale ? `  why: ${d.rationale}` : "",
    ...d.alternatives.map((a) => `  rejected: ${a}`),
    related.length ? `  related: ${related.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

export function register(program: Command) {
  program
    .command("decision-record <title>")
    .description("write a decision into the team's journal (you are its author)")
    .requiredOption("--decision <text>", "what was decided")
    .option("--rationale <text>", "why")
    .option("--alternative <text>", "an option considered and rejected (repeatable)", repeatable)
    .option("--artifact <id>", "a related artifact (repeatable)", collect)
    .option("--contract <id>", "a related contract (repeatable)", collect)
    .action(
      action(
        ({ hub, opts, args }: Ctx<RecordOpts>) =>
          hub.continuity.recordDecision({
            title: args[0],
            decision: opts.decision,
            rationale: opts.rationale,
            alternatives: opts.alternative,
            related: opts.artifact || opts.contract ? { artifacts: opts.artifact, contracts: opts.contract } : undefined,
          }),
        (d) => `recorded decision ${show(d)}`,
      ),
    );
  program
    .command("decision-list")
    .description("the decision journal, newest first")
    .option("--since <date>", "only decisions recorded at or after this ISO 8601 date or date-time")
    .option("--after <id>", "only decisions after this one (the newest you have seen)")
    .option("--artifact <id>", "only decisions related to this artifact")
    .option("--contract <id>", "only decisions related to this contract")
    .option("--limit <n>", "page size (≤ 500)")
    .option("--cursor <n>", "continue after this cursor (nextCursor of the previous page)")
    .action(
      action(
        ({ hub, opts }: Ctx<ListOpts>) =>
          hub.continuity.listDecisions({
            since: opts.since,
            after: intOption("--after", opts.after),
            artifact: opts.artifact,
            contract: opts.contract,
            limit: intOption("--limit", opts.limit),
            cursor: intOption("--cursor", opts.cursor),
          }),
        (page) =>
          [
            table(
              page.items.map((d) => ({ ...d, at: d.createdAt.toISOString() })),
              ["id", "title", "author", "at"],
            ),
            page.nextCursor === null ? "" : `more: --cursor ${page.nextCursor}`,
          ]
            .filter(Boolean)
            .join("\n"),
      ),
    );
}
