import type { Command } from "commander";
import type { ContractView } from "../../domain/contracts/contracts.repo.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { badOption, intOption } from "../options.ts";

type Opts = { on?: string; artifact?: string; minVersion?: string };

function dependency(opts: Opts) {
  if (!!opts.on === !!opts.artifact) throw badOption("--on/--artifact", "give exactly one of --on <contract> or --artifact <id>");
  return opts.on
    ? { type: "contract", contractId: opts.on }
    : { type: "artifact", artifactId: opts.artifact, minVersion: intOption("--min-version", opts.minVersion) };
}

export function register(program: Command) {
  for (const [name, method, verb] of [
    ["contract-depend", "POST", "now depends on"],
    ["contract-undepend", "DELETE", "no longer depends on"],
  ] as const) {
    program
      .command(`${name} <id>`)
      .description(method === "POST" ? "add a dependency (refused if it would create a cycle)" : "remove a dependency")
      .option("--on <contract>", "a contract dependency")
      .option("--artifact <id>", "an artifact dependency")
      .option("--min-version <n>", "with --artifact: the version it must reach")
      .action(
        action<Opts, ContractView>(
          ({ target, team, opts, args }) =>
            call(target, method, `/contracts/${encodeURIComponent(args[0])}/dependencies`, { query: { team }, body: { dependency: dependency(opts) } }),
          (c) =>
            `${c.id} ${verb} ${c.dependencies.length ? "" : "nothing; "}${c.dependencies.map((d) => (d.type === "contract" ? d.contractId : d.artifactId)).join(", ")} — ${c.status}`,
        ),
      );
  }
}
