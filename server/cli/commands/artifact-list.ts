import type { Command } from "commander";
import type { ListArtifactsInput } from "../../../lib/api/artifacts.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption } from "../options.ts";

type Opts = { type?: string; publisher?: string; tag?: string; status?: ListArtifactsInput["status"]; limit?: string; cursor?: string };

export function register(program: Command) {
  program
    .command("artifact-list")
    .description("list artifacts")
    .option("--type <type>")
    .option("--publisher <name>")
    .option("--tag <tag>")
    .option("--status <status>", "active | rolled_back")
    .option("--limit <n>", "page size (≤ 500)")
    .option("--cursor <n>", "continue after this cursor")
    .action(
      action(
        ({ hub, opts }: Ctx<Opts>) =>
          hub.artifacts.list({
            type: opts.type,
            publisher: opts.publisher,
            tag: opts.tag,
            status: opts.status,
            limit: intOption("--limit", opts.limit),
            cursor: intOption("--cursor", opts.cursor),
          }),
        (r) =>
          table(
            r.items.map((a) => ({ ...a, version: a.currentVersion ? `v${a.currentVersion}` : null, tags: a.tags.join(",") })),
            ["id", "type", "version", "status", "publisher", "tags"],
          ) + (r.nextCursor ? `\n(more: --cursor ${r.nextCursor})` : ""),
      ),
    );
}
