import type { Command } from "commander";
import type { TeamView } from "../../domain/teams/teams.service.ts";
import type { HubEvent } from "../../events/types.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";
import { intOption } from "../options.ts";

export function register(program: Command) {
  program
    .command("teams")
    .description("list teams")
    .action(action<object, TeamView[]>(({ target }) => call(target, "GET", "/teams"), (r) => table(r.map((t) => ({ ...t, archived: t.archivedAt ? "yes" : "" })), ["id", "archived"])));
  program
    .command("team-create <id>")
    .description("create a team explicitly (writes create teams implicitly too)")
    .action(action<object, TeamView>(({ target, args }) => call(target, "POST", "/teams", { body: { id: args[0] } }), (t) => `created team ${t.id}`));
  program
    .command("team-archive <id>")
    .description("archive a team: it stays readable and refuses changes")
    .action(action<object, TeamView>(({ target, args }) => call(target, "POST", `/teams/${encodeURIComponent(args[0])}/archive`), (t) => `archived team ${t.id}`));
  program
    .command("events")
    .description("the team's event log: newest first, or after an event id oldest first")
    .option("--after <id>")
    .option("--type <type>")
    .option("--hub", "hub-wide events (tokens issued and revoked) instead of the team's")
    .option("--limit <n>")
    .action(
      action<{ after?: string; type?: string; limit?: string; hub?: boolean }, { events: HubEvent[] }>(
        ({ target, team, opts }) =>
          call(target, "GET", "/events", { query: { team, hub: opts.hub, after: intOption("--after", opts.after), type: opts.type, limit: intOption("--limit", opts.limit) } }),
        (r) => table(r.events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })), ["id", "type", "subject", "principal", "at"]),
      ),
    );
}
