import type { Command } from "commander";
import type { ArtifactView } from "../../domain/artifacts/artifacts.service.ts";
import type { VersionView } from "../../../lib/api/artifacts.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("artifact-history <id>")
    .description("every version of an artifact")
    .option("--data", "include each version's data")
    .action(
      action<{ data?: boolean }, { artifact: ArtifactView; versions: VersionView[] }>(
        ({ target, team, opts, args }) =>
          call(target, "GET", `/artifacts/${encodeURIComponent(args[0])}/history`, { query: { team, includeData: opts.data ? "true" : undefined } }),
        (r) =>
          `${r.artifact.id} (${r.artifact.type})\n` +
          table(
            r.versions.map((v) => ({
              version: `v${v.version}`,
              status: v.status,
              publisher: v.publisher,
              contract: v.contractId,
              derivedFrom: v.derivedFrom.join(","),
              at: new Date(v.createdAt).toISOString(),
              summary: v.summary,
            })),
            ["version", "status", "publisher", "contract", "derivedFrom", "at", "summary"],
          ),
      ),
    );
}
