import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { json } from "../format.ts";
import { intOption } from "../options.ts";

export function register(program: Command) {
  program
    .command("artifact-get <id>")
    .description("read an artifact version (the latest active one by default); the read is recorded")
    .option("--version <n>", "a specific version")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ version?: string }>) => hub.artifacts.get({ id: args[0], version: intOption("--version", opts.version) }),
        (v) =>
          `${v.artifactId}@v${v.version} (${v.type}, ${v.status}) by ${v.publisher} at ${v.createdAt.toISOString()}` +
          `${v.derivedFrom.length ? `\nderived from ${v.derivedFrom.join(", ")}` : ""}${v.summary ? `\n${v.summary}` : ""}\n${json(v.data)}`,
      ),
    );
}
