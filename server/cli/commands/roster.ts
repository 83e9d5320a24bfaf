import type { Command } from "commander";
import type { MemberView } from "../../domain/roster/roster.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("team-roster")
    .description("the team's members with role, status, current task and last seen")
    .action(
      action<object, MemberView[]>(
        ({ target, team }) => call(target, "GET", "/roster", { query: { team } }),
        (list) =>
          table(
            list.map((m) => ({ ...m, lastSeen: new Date(m.lastSeen).toISOString() })),
            ["name", "role", "status", "currentTask", "lastSeen"],
          ),
      ),
    );
  program
    .command("team-member <name>")
    .description("join the team or update a member's role, status or current task")
    .option("--role <role>")
    .option("--status <status>", "idle | busy | waiting | offline")
    .option("--task <text>", "what the member is working on")
    .action(
      action<{ role?: string; status?: string; task?: string }, MemberView>(
        ({ target, team, opts, args }) =>
          call(target, "POST", "/roster", { query: { team }, body: { name: args[0], role: opts.role, status: opts.status, currentTask: opts.task } }),
        (m) => `${m.name}: ${m.status}${m.role ? ` (${m.role})` : ""}${m.currentTask ? ` — ${m.currentTask}` : ""}`,
      ),
    );
}
