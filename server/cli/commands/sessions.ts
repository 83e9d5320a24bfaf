import fs from "node:fs";
import type { Command } from "commander";
import { BatchSpawnInput, SESSION_STATUSES, type SendResult } from "../../../lib/api/sessions.ts";
import { zodIssues } from "../../domain/zod-errors.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { badOption, choiceOption, intOption, jsonOption } from "../options.ts";
import { nameOf, sessionLine, spawnBody, spawnOptions, type SpawnOpts } from "../session-options.ts";

const reply = (r: SendResult) =>
  r.completed
    ? `${r.interaction.response ?? "(no text)"}\n\n— ${r.session.name} turn ${r.interaction.n}: ${r.interaction.status}${r.interaction.error ? ` (${r.interaction.error})` : ""}, $${r.interaction.costUsd.toFixed(4)}, ${r.interaction.turns} turns`
    : `queued as turn ${r.interaction.n} of ${r.session.name} (${r.session.status})`;

/** The sessions of a batch file, checked before the request so that a bad entry is named with --file. */
function batchOf(file: string, team: string) {
  let text: string;
  try {
    text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    throw badOption("--file", `cannot read ${file}: ${(e as Error).message}`);
  }
  const parsed = jsonOption("--file", text);
  const list = Array.isArray(parsed) ? parsed : (parsed as { sessions?: unknown })?.sessions;
  if (!Array.isArray(list)) throw badOption("--file", "must hold a JSON array of sessions or {sessions: […]}");
  const entries = list.map((s: unknown) => (typeof s === "object" && s !== null ? { team, workDir: process.cwd(), ...s } : s));
  const sessions = BatchSpawnInput.shape.sessions.safeParse(entries, { reportInput: true });
  if (!sessions.success)
    throw badOption(
      "--file",
      zodIssues(sessions.error, "sessions")
        .map((i) => `${i.field}: ${i.message}`)
        .join("; "),
    );
  return sessions.data;
}

export function register(program: Command) {
  spawnOptions(
    program
      .command("spawn [name]")
      .description("start a supervised session (Claude Code, or another runtime with --runtime)")
      .option("--prompt <text>", "first message"),
  )
    .option("--wait", "wait for the reply to the first message and print it")
    .action(
      action(
        async ({ hub, opts, args }: Ctx<SpawnOpts & { wait?: boolean }>) => {
          const name = nameOf(args[0], opts.name);
          const body = { ...spawnBody(opts), name };
          if (!opts.wait || !opts.prompt) return hub.sessions.spawn({ ...body, prompt: opts.prompt });
          await hub.sessions.spawn(body);
          return hub.sessions.send({ name, message: opts.prompt, wait: true });
        },
        (r) => ("interaction" in r ? reply(r) : `started ${sessionLine(r)}`),
      ),
    );

  spawnOptions(
    program
      .command("team-spawn [name]")
      .description("start a session as a team member (roster, worker guide, its own hub identity)")
      .option("--prompt <text>", "first task"),
  )
    .option("--role <role>", "the member's role")
    .action(
      action(
        ({ hub, opts, args }: Ctx<SpawnOpts & { role?: string }>) =>
          hub.sessions.teamSpawn({ ...spawnBody(opts), name: nameOf(args[0], opts.name), prompt: opts.prompt, role: opts.role }),
        (r) => `started ${sessionLine(r)} as a member of ${r.team}${r.batch ? ` (spawn batch ${r.batch})` : ""}`,
      ),
    );

  program
    .command("batch")
    .description("start several sessions from a JSON file: [{name, prompt, model, …}] or {sessions: […]}")
    .requiredOption("--file <path>", "the JSON file (- for stdin)")
    .action(
      action(
        ({ hub, team, opts }: Ctx<{ file: string }>) => hub.sessions.batch({ sessions: batchOf(opts.file, team) }),
        (list) => list.map((s) => `started ${sessionLine(s)}`).join("\n"),
      ),
    );

  program
    .command("fork <name> <newName>")
    .description("start a new session from another one's conversation")
    .option("--prompt <text>", "first message of the fork")
    .option("--model <model>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ prompt?: string; model?: string }>) =>
          hub.sessions.fork({ name: args[0], newName: args[1], prompt: opts.prompt, model: opts.model }),
        (s) => `forked ${s.parent} into ${sessionLine(s)}`,
      ),
    );

  program
    .command("send [name] [message]")
    .description("send a message and wait for the reply (a stopped session is resumed first)")
    .option("--name <name>")
    .option("--message <text>")
    .option("--no-wait", "return once the message is queued")
    .option("--wait-timeout-ms <ms>", "how long to wait for the reply (default 600000)")
    .option("--stop", "stop the session after the reply")
    .action(
      action(async ({ hub, opts, args }: Ctx<{ name?: string; message?: string; wait: boolean; waitTimeoutMs?: string; stop?: boolean }>) => {
        const name = nameOf(args[0], opts.name);
        const message = nameOf(args[1], opts.message, "message");
        const r = await hub.sessions.send({ name, message, wait: opts.wait, waitTimeoutMs: intOption("--wait-timeout-ms", opts.waitTimeoutMs) });
        if (opts.stop) await hub.sessions.stop({ name });
        return r;
      }, reply),
    );

  program
    .command("list")
    .description("the team's sessions, newest first")
    .option("--all", "sessions of every team")
    .option("--status <status>")
    .option("--limit <n>")
    .action(
      action(
        ({ hub, team, opts }: Ctx<{ all?: boolean; status?: string; limit?: string }>) =>
          hub.sessions.list({
            team: opts.all ? undefined : team,
            status: choiceOption("--status", SESSION_STATUSES, opts.status),
            limit: intOption("--limit", opts.limit),
          }),
        (list) =>
          table(
            list.map((s) => ({
              ...s,
              status: s.queuePosition ? `queued (#${s.queuePosition})` : s.status,
              cost: `$${s.costUsd.toFixed(4)}`,
              problem: s.problem ?? "",
            })),
            // Last, so that a long reason does not push the other columns apart.
            ["name", "team", "status", "model", "cost", "turns", "interactions", "queued", "spawnedBy", "problem"],
          ),
      ),
    );
}
