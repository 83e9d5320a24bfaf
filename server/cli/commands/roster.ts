import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("team-roster")
    .description("the team's members with role, status, current task and last seen")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.roster.list(),
        (list) =>
          table(
            list.map((m) => ({ ...m, lastSeen: m.lastSeen.toISOString() })),
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
      action(
        ({ hub, opts, args }: Ctx<{ role?: string; status?: string; task?: string }>) =>
          hub.roster.upsert(asTyped(api.roster.upsert, { name: args[0], role: opts.role, status: opts.status, currentTask: opts.task })),
        (m) => `${m.name}: ${m.status}${m.role ? ` (${m.role})` : ""}${m.currentTask ? ` — ${m.currentTask}` : ""}`,
      ),
    );
}
