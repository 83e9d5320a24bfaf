import type { Command } from "commander";
import type { VersionView } from "../../domain/artifacts/artifacts.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { json } from "../format.ts";
import { intOption } from "../options.ts";

export function register(program: Command) {
  program
    .command("artifact-get <id>")
    .description("read an artifact version (the latest active one by default); the read is recorded")
    .option("--version <n>", "a specific version")
    .action(
      action<{ version?: string }, VersionView>(
        ({ target, team, opts, args }) =>
          call(target, "GET", `/artifacts/${encodeURIComponent(args[0])}`, { query: { team, version: intOption("--version", opts.version) } }),
        (v) =>
          `${v.artifactId}@v${v.version} (${v.type}, ${v.status}) by ${v.publisher} at ${new Date(v.createdAt).toISOString()}` +
          `${v.derivedFrom.length ? `\nderived from ${v.derivedFrom.join(", ")}` : ""}${v.summary ? `\n${v.summary}` : ""}\n${json(v.data)}`,
      ),
    );
}
