import type { Command } from "commander";
import type { Dependency } from "../../../lib/api/contracts.ts";
import { action, type Ctx } from "../action.ts";
import { badOption, intOption } from "../options.ts";

type Opts = { on?: string; artifact?: string; minVersion?: string };

function dependency(opts: Opts): Dependency {
  if (opts.on && !opts.artifact) return { type: "contract", contractId: opts.on };
  if (opts.artifact && !opts.on) return { type: "artifact", artifactId: opts.artifact, minVersion: intOption("--min-version", opts.minVersion) };
  throw badOption("--on/--artifact", "give exactly one of --on <contract> or --artifact <id>");
}

export function register(program: Command) {
  for (const [name, op, verb] of [
    ["contract-depend", "addDependency", "now depends on"],
    ["contract-undepend", "removeDependency", "no longer depends on"],
  ] as const) {
    program
      .command(`${name} <id>`)
      .description(op === "addDependency" ? "add a dependency (refused if it would create a cycle)" : "remove a dependency")
      .option("--on <contract>", "a contract dependency")
      .option("--artifact <id>", "an artifact dependency")
      .option("--min-version <n>", "with --artifact: the version it must reach")
      .action(
        action(
          ({ hub, opts, args }: Ctx<Opts>) => hub.contracts[op]({ id: args[0], dependency: dependency(opts) }),
          (c) =>
            `${c.id} ${verb} ${c.dependencies.length ? "" : "nothing; "}${c.dependencies.map((d) => (d.type === "contract" ? d.contractId : d.artifactId)).join(", ")} — ${c.status}`,
        ),
      );
  }
}
