import type { Command } from "commander";
import { RegisterTypeInput } from "../../../lib/api/artifacts.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { checkedOption, jsonFromInlineOrFile } from "../options.ts";

export function register(program: Command) {
  program
    .command("artifact-types")
    .description("artifact types this team accepts, with their JSON Schemas (--json)")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.artifacts.types(),
        (r) =>
          table(
            r.map((t) => ({ ...t, builtIn: t.builtIn ? "built-in" : "team" })),
            ["name", "builtIn"],
          ),
      ),
    );
  program
    .command("artifact-type-register <name>")
    .description("register (or replace) a team artifact type validated by a JSON Schema")
    .option("--schema <json>", "the JSON Schema")
    .option("--schema-file <path>", "read the JSON Schema from a file")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ schema?: string; schemaFile?: string }>) =>
          hub.artifacts.registerType({
            name: args[0],
            jsonSchema: checkedOption(
              opts.schemaFile === undefined ? "--schema" : "--schema-file",
              RegisterTypeInput.shape.jsonSchema,
              jsonFromInlineOrFile(opts.schema, opts.schemaFile, "schema"),
            ),
          }),
        (t) => `registered type ${t.name}`,
      ),
    );
}
