import type { Command } from "commander";
import { APPROVAL_STATUSES } from "../../../lib/api/sessions.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { choiceOption, intOption } from "../options.ts";
import { nameOf, sessionLine } from "../session-options.ts";

export function register(program: Command) {
  for (const [op, description] of [
    ["pause", "pause a session: the process stays alive, new messages queue"],
    ["resume", "resume a paused session, or relaunch a stopped one with its conversation"],
  ] as const) {
    program
      .command(`${op} [name]`)
      .description(description)
      .option("--name <name>")
      .action(
        action(
          ({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions[op]({ name: nameOf(args[0], opts.name) }),
          (s) => sessionLine(s),
        ),
      );
  }
  // docs/sessions.md#retrying-a-failed-turn
  program
    .command("retry [name]")
    .description("send the last turn's prompt again, when that turn failed (resumes a stopped session first)")
    .option("--name <name>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions.retry({ name: nameOf(args[0], opts.name) }),
        (r) => `${sessionLine(r.session)}\nturn ${r.interaction.n} queued: the prompt of the failed turn again`,
      ),
    );
  for (const [op, description] of [
    ["stop", "stop gracefully: the current turn finishes; resumable later"],
    ["kill", "end it now: interrupt, SIGTERM, SIGKILL"],
  ] as const) {
    program
      .command(`${op} [name]`)
      .description(description)
      .option("--name <name>")
      .option("--no-wait", "return without waiting for the process to exit")
      .action(
        action(
          ({ hub, opts, args }: Ctx<{ name?: string; wait: boolean }>) => hub.sessions[op]({ name: nameOf(args[0], opts.name), wait: opts.wait }),
          (s) => sessionLine(s),
        ),
      );
  }
  program
    .command("delete [name]")
    .description("delete a session with its transcript and history (a running process is killed)")
    .option("--name <name>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions.delete({ name: nameOf(args[0], opts.name) }),
        (r) => `deleted ${r.deleted}`,
      ),
    );
  program
    .command("cleanup")
    .description("delete sessions that ended more than --days days ago: every team's, or only --team's")
    .requiredOption("--days <n>")
    .action(
      action(
        // Without --team the team stays out, which sweeps every team.
        ({ hub, opts }: Ctx<{ days: string }>) => hub.sessions.cleanup({ days: intOption("--days", opts.days), team: opts.team }),
        (r) => (r.deleted.length ? `deleted ${r.deleted.length}: ${r.deleted.join(", ")}` : "nothing to delete"),
      ),
    );
  program
    .command("status [name]")
    .description("state, cost, turns, the running turn, pending approvals and violations")
    .option("--name <name>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions.status({ name: nameOf(args[0], opts.name) }),
        (s) =>
          [
            sessionLine(s),
            `  claude session ${s.claudeSessionId ?? "—"}, pid ${s.pid ?? "—"}, preset ${s.preset}, in ${s.workDir}`,
            s.spawnedBy ? `  spawned by ${s.spawnedBy}` : "",
            s.running ? `  running turn ${s.running.n}` : "",
            ...s.approvals.map((a) => `  approval ${a.id}: ${a.toolName} ${JSON.stringify(a.input)} (${a.reason}; until ${a.expiresAt.toISOString()})`),
            ...s.violations.map((v) => `  violation: ${v.kind}: ${v.detail}`),
            // The problem already ends the first line; the raw error is shown when it says more.
            s.lastError && !s.problem?.includes(s.lastError) ? `  last error: ${s.lastError}` : "",
          ]
            .filter(Boolean)
            .join("\n"),
      ),
    );
  program
    .command("approvals")
    .description("permission requests (pending ones by default) of the team's sessions")
    .option("--status <status>", "pending | allowed | denied | timed_out | cancelled", "pending")
    .action(
      action(
        ({ hub, opts }: Ctx<{ status: string }>) => hub.sessions.approvals({ status: choiceOption("--status", APPROVAL_STATUSES, opts.status) }),
        (list) =>
          table(
            list.map((a) => ({ ...a, input: JSON.stringify(a.input).slice(0, 60) })),
            ["id", "session", "toolName", "input", "status"],
          ),
      ),
    );
  for (const decision of ["allow", "deny"] as const) {
    const command = program
      .command(`${decision} <name> <approvalId>`)
      .description(`${decision} a session's pending permission request`)
      .option("--note <text>");
    // docs/sessions.md#allow-for-this-session
    if (decision === "allow") command.option("--for-session", "and the same command (or file) for the rest of the session, without asking");
    command.action(
      action(
        ({ hub, opts, args }: Ctx<{ note?: string; forSession?: boolean }>) =>
          hub.sessions.decide({
            name: args[0],
            approvalId: intOption("<approvalId>", args[1]),
            decision,
            note: opts.note,
            ...(opts.forSession ? { forSession: true } : {}),
          }),
        (a) => `approval ${a.id} (${a.toolName}): ${a.status}`,
      ),
    );
  }
  program
    .command("decide <decision> <approvalIds...>")
    .description("allow or deny several pending permission requests of the team at once (ids from `teamhub approvals`)")
    .option("--note <text>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ note?: string }>) =>
          hub.sessions.decideMany({
            decision: choiceOption("<decision>", ["allow", "deny"] as const, args[0])!,
            ids: args.slice(1).map((id) => intOption("<approvalIds>", id)),
            note: opts.note,
          }),
        (r) =>
          [
            ...r.decided.map((a) => `approval ${a.id} (${a.session}, ${a.toolName}): ${a.status}`),
            ...r.skipped.map((s) => `approval ${s.id}: already ${s.status}, left as it was`),
          ].join("\n"),
      ),
    );
}
