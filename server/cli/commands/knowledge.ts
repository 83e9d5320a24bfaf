/** Team knowledge (docs/knowledge.md): state-update and state, wisdom-append and wisdom, the exploration cache. */
import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import type { ExplorationView, StateUpdateView, WisdomView } from "../../../lib/api/knowledge.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption, repeatable } from "../options.ts";

type UpdateOpts = {
  status: string;
  task: string;
  ref?: string;
  finding?: string[];
  decision?: string[];
  rationale?: string[];
  file?: string[];
  verification: string;
};
type AppendOpts = { title: string; rationale?: string; alternative?: string[]; example?: string[]; artifact?: string[]; contract?: string[] };

const ref = (r: { artifactId: string; version: number } | null) => (r ? `${r.artifactId}@v${r.version}` : "");

function showUpdate(u: StateUpdateView): string {
  return [
    `${u.member}${u.role ? ` (${u.role})` : ""}: ${u.status}, ${u.verification} — ${u.task}${u.ref ? ` [${ref(u.ref)}]` : ""} (${u.createdAt.toISOString()})`,
    ...u.keyFindings.map((f) => `  finding: ${f}`),
    ...u.decisions.map((d) => `  decided: ${d.decision} (because ${d.rationale})`),
    ...(u.filesModified.length ? [`  files: ${u.filesModified.join(", ")}`] : []),
  ].join("\n");
}

const showWisdom = (w: WisdomView) =>
  [`#${w.id} [${w.kind}] ${w.title} (${w.author}, ${w.createdAt.toISOString()})`, `  ${w.body}`, w.rationale ? `  why: ${w.rationale}` : ""]
    .filter(Boolean)
    .join("\n");

const showExploration = (e: ExplorationView) =>
  `${e.angle} (by ${e.createdBy}, ${e.createdAt.toISOString()}, revision ${e.revision})${e.ref ? ` [${ref(e.ref)}]` : ""}\n  ${e.result}`;

export function register(program: Command) {
  program
    .command("state-update")
    .description("post your state update: status, task, ref, key findings, decisions, files, verification")
    .requiredOption("--status <status>", "in_progress | completed | blocked | failed")
    .requiredOption("--task <text>", "what you worked on")
    .requiredOption("--verification <how>", "self-validated | peer-reviewed | tested")
    .option("--ref <id@vN>", "the artifact version it produced")
    .option("--finding <text>", "a key finding, ≤ 100 characters (repeatable, at most 5)", repeatable)
    .option("--decision <text>", "a decision (repeatable; pairs with --rationale in order)", repeatable)
    .option("--rationale <text>", "why, for the decision in the same position (repeatable)", repeatable)
    .option("--file <path>", "a file you modified (repeatable)", repeatable)
    .action(
      action(
        ({ hub, opts }: Ctx<UpdateOpts>) =>
          hub.knowledge.stateUpdate(
            asTyped(api.knowledge.stateUpdate, {
              status: opts.status,
              task: opts.task,
              ref: opts.ref,
              keyFindings: opts.finding,
              decisions: opts.decision?.map((decision, i) => ({ decision, rationale: opts.rationale?.[i] })),
              filesModified: opts.file,
              verification: opts.verification,
            }),
          ),
        (u) => `posted ${showUpdate(u)}`,
      ),
    );
  program
    .command("state")
    .description("the team state: every member's newest state update")
    .option("--member <name>", "only this member")
    .option("--history <n>", "earlier updates per member (default 5)")
    .action(
      action(
        ({ hub, opts }: Ctx<{ member?: string; history?: string }>) =>
          hub.knowledge.teamState({ member: opts.member, history: intOption("--history", opts.history) }),
        (s) =>
          s.members.length
            ? s.members
                .map((m) => [showUpdate(m.latest), ...m.history.map((h) => `  before: ${h.status} — ${h.task} (${h.createdAt.toISOString()})`)].join("\n"))
                .join("\n")
            : "no state updates yet",
      ),
    );
  program
    .command("wisdom-append <kind> <body>")
    .description("append a learning, decision, convention or issue to the team's wisdom (append-only)")
    .requiredOption("--title <text>", "a short title; a convention's name")
    .option("--rationale <text>", "decisions: why")
    .option("--alternative <text>", "decisions: an option rejected (repeatable)", repeatable)
    .option("--example <text>", "conventions: an example (repeatable)", repeatable)
    .option("--artifact <id>", "a related artifact (repeatable)", repeatable)
    .option("--contract <id>", "a related contract (repeatable)", repeatable)
    .action(
      action(
        ({ hub, opts, args }: Ctx<AppendOpts>) =>
          hub.knowledge.appendWisdom(
            asTyped(api.knowledge.appendWisdom, {
              kind: args[0],
              body: args[1],
              title: opts.title,
              rationale: opts.rationale,
              alternatives: opts.alternative,
              examples: opts.example,
              related: opts.artifact || opts.contract ? { artifacts: opts.artifact, contracts: opts.contract } : undefined,
            }),
          ),
        (w) => `appended ${showWisdom(w)}`,
      ),
    );
  program
    .command("wisdom")
    .description("the team's wisdom, oldest first (read newest last)")
    .option("--kind <kind>", "learning | decision | convention | issue")
    .option("--after <id>", "only entries after this id")
    .option("--limit <n>", "page size (≤ 500)")
    .action(
      action(
        ({ hub, opts }: Ctx<{ kind?: string; after?: string; limit?: string }>) =>
          hub.knowledge.listWisdom(
            asTyped(api.knowledge.listWisdom, { kind: opts.kind, after: intOption("--after", opts.after), limit: intOption("--limit", opts.limit) }),
          ),
        (page) => [...page.items.map(showWisdom), page.nextAfter === null ? "" : `more: --after ${page.nextAfter}`].filter(Boolean).join("\n"),
      ),
    );
  program
    .command("explore-lookup <angle>")
    .description("look an angle up in the exploration cache before researching it")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.knowledge.lookupExploration({ angle: args[0] }),
        (l) => (l.entry ? `hit: ${showExploration(l.entry)}` : `miss: nobody explored '${l.angle}' yet; explore it, then explore-record`),
      ),
    );
  program
    .command("explore-record <angle> <result>")
    .description("record what you found about an angle (only its creator may update it)")
    .option("--ref <id@vN>", "an artifact version with the details")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ ref?: string }>) => hub.knowledge.recordExploration({ angle: args[0], result: args[1], ref: opts.ref }),
        (e) => `${e.outcome} ${showExploration(e)}`,
      ),
    );
  program
    .command("explorations")
    .description("the exploration cache by angle")
    .option("--limit <n>", "page size (≤ 500)")
    .option("--cursor <angle>", "continue after this angle")
    .action(
      action(
        ({ hub, opts }: Ctx<{ limit?: string; cursor?: string }>) =>
          hub.knowledge.listExplorations({ limit: intOption("--limit", opts.limit), cursor: opts.cursor }),
        (page) =>
          [
            table(
              page.items.map((e) => ({ ...e, ref: ref(e.ref), created: e.createdAt.toISOString() })),
              ["angle", "createdBy", "created", "revision", "ref", "result"],
            ),
            page.nextCursor === null ? "" : `more: --cursor ${page.nextCursor}`,
          ]
            .filter(Boolean)
            .join("\n"),
      ),
    );
}
