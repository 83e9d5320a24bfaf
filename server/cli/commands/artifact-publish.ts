import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { effects } from "../format.ts";
import { collect, intOption, jsonFromInlineOrFile } from "../options.ts";

type Opts = {
  type: string;
  name?: string;
  data?: string;
  dataFile?: string;
  summary?: string;
  tag?: string[];
  derivedFrom?: string[];
  contract?: string;
  expectedVersion?: string;
};

export function register(program: Command) {
  program
    .command("artifact-publish <id>")
    .description("publish a new version of an artifact")
    .requiredOption(
      "--type <type>",
      "artifact type (api-contract, schema-change, component-spec, test-results, file-manifest, config-change, custom, or a registered one)",
    )
    .option("--name <name>", "display name")
    .option("--data <json>", "the version's data as JSON")
    .option("--data-file <path>", "read the data from a JSON file (- for stdin)")
    .option("--summary <text>", "one line about this version")
    .option("--tag <tag>", "tag (repeatable)", collect)
    .option("--derived-from <ref>", "input version id@vN, or id for its latest (repeatable)", collect)
    .option("--contract <id>", "the contract this is published under")
    .option("--expected-version <n>", "refuse unless the latest version is n (0: must not exist yet)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<Opts>) =>
          hub.artifacts.publish({
            id: args[0],
            type: opts.type,
            name: opts.name,
            data: jsonFromInlineOrFile(opts.data, opts.dataFile, "data"),
            summary: opts.summary,
            tags: opts.tag,
            derivedFrom: opts.derivedFrom,
            contractId: opts.contract,
            expectedVersion: intOption("--expected-version", opts.expectedVersion),
          }),
        (r) =>
          `published ${r.artifactId}@v${r.version} (${r.type})${r.derivedFrom.length ? ` derived from ${r.derivedFrom.join(", ")}` : ""}${effects(r.effects)}`,
      ),
    );
}
