import type { Command } from "commander";
import type { TypeInfo } from "../../domain/artifacts/type-registry.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";
import { jsonFromInlineOrFile } from "../options.ts";

export function register(program: Command) {
  program
    .command("artifact-types")
    .description("artifact types this team accepts, with their JSON Schemas (--json)")
    .action(
      action<object, TypeInfo[]>(
        ({ target, team }) => call(target, "GET", "/artifact-types", { query: { team } }),
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
      action<{ schema?: string; schemaFile?: string }, TypeInfo>(
        ({ target, team, opts, args }) =>
          call(target, "POST", "/artifact-types", {
            query: { team },
            body: { name: args[0], jsonSchema: jsonFromInlineOrFile(opts.schema, opts.schemaFile, "schema") },
          }),
        (t) => `registered type ${t.name}`,
      ),
    );
}
