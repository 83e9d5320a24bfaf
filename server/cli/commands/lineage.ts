/** artifact-lineage, artifact-impact, artifact-stale and team-audit (docs/domain.md#lineage). */
import type { Command } from "commander";
import type { LineageDirection, LineageGraph } from "../../../lib/api/lineage.ts";
import { staleCauseText, stalePathText } from "../../../lib/stale-reason.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption } from "../options.ts";

function tree(g: LineageGraph): string {
  const [from, to] = g.direction === "upstream" ? (["to", "from"] as const) : (["from", "to"] as const);
  const nodes = new Map(g.nodes.map((n) => [n.key, n]));
  const seen = new Set<string>();
  const lines: string[] = [];
  const label = (key: string) => {
    const n = nodes.get(key)!;
    return `${key} (${n.type}${n.status === "active" ? "" : `, ${n.status}`}${n.stale ? ", stale" : ""})`;
  };
  const walk = (key: string, indent: string) => {
    for (const e of g.edges.filter((x) => x[from] === key)) {
      const repeat = seen.has(e[to]);
      lines.push(
        `${indent}${g.direction === "upstream" ? "◄─" : "─►"} ${label(e[to])}${e.kind === "contract" ? ` [via contract ${e.contractId}]` : ""}${repeat ? " …" : ""}`,
      );
      if (repeat) continue;
      seen.add(e[to]);
      walk(e[to], `${indent}   `);
    }
  };
  lines.push(label(g.root));
  seen.add(g.root);
  walk(g.root, "");
  return lines.join("\n");
}

export function register(program: Command) {
  program
    .command("artifact-lineage <ref>")
    .description("the provenance DAG of an artifact version (id or id@vN)")
    .option("--direction <dir>", "upstream (what it came from, default) or downstream (what came from it)")
    .option("--depth <n>", "hops to follow (default 25)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ direction?: LineageDirection; depth?: string }>) =>
          hub.lineage.graph({ ref: args[0], direction: opts.direction, depth: intOption("--depth", opts.depth) }),
        tree,
      ),
    );
  program
    .command("artifact-impact <id>")
    .description("what a change to this artifact reaches: downstream artifacts and the contracts relying on them")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.lineage.impact({ id: args[0] }),
        (r) =>
          `artifacts downstream of ${r.artifactId}:\n${table(
            r.artifacts.map((a) => ({ ...a, currentVersion: `v${a.currentVersion}` })),
            ["artifactId", "type", "currentVersion", "depth"],
          )}` + `\ncontracts relying on them:\n${table(r.contracts, ["contractId", "status", "assignee", "relation", "artifactId"])}`,
      ),
    );
  program
    .command("artifact-stale")
    .description("artifacts built on versions that are no longer current, directly or through a stale input")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.lineage.stale(),
        (list) =>
          list.length === 0
            ? "nothing is stale"
            : list
                .map(
                  (s) =>
                    `${s.artifactId}@v${s.version}\n${s.reasons.map((r) => `   ${staleCauseText(r)}${r.path.length ? `\n     path: ${stalePathText(r.path)}` : ""}`).join("\n")}`,
                )
                .join("\n"),
      ),
    );
  program
    .command("team-audit <ref>")
    .description("the full provenance trail of a version: publishers, contracts, inputs, readers")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.lineage.audit({ ref: args[0] }),
        (r) =>
          table(
            r.trail.map((e) => ({
              ...e,
              version: `${e.artifactId}@v${e.version}`,
              publishedAt: e.publishedAt.toISOString(),
              inputs: e.inputs.join(","),
              readers: [...new Set(e.readers.map((x) => x.reader))].join(","),
              cost: e.cost ?? "—",
            })),
            ["depth", "version", "type", "status", "publisher", "contractId", "publishedAt", "inputs", "readers", "cost"],
          ),
      ),
    );
}
