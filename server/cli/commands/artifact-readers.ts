import type { Command } from "commander";
import type { ReadRecord, ReaderSummary } from "../../domain/artifacts/artifacts.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("artifact-readers <id>")
    .description("who read which versions of an artifact")
    .action(
      action<object, { readers: ReaderSummary[]; reads: ReadRecord[] }>(
        ({ target, team, args }) => call(target, "GET", `/artifacts/${encodeURIComponent(args[0])}/readers`, { query: { team } }),
        (r) =>
          table(
            r.readers.map((x) => ({ ...x, lastVersion: `v${x.lastVersion}`, lastAt: new Date(x.lastAt).toISOString() })),
            ["reader", "reads", "lastVersion", "lastAt"],
          ),
      ),
    );
}
