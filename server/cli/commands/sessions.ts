import fs from "node:fs";
import type { Command } from "commander";
import type { SessionView } from "../../domain/sessions/sessions.repo.ts";
import type { SendResult } from "../../domain/sessions/control.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";
import { badOption, intOption, jsonOption } from "../options.ts";
import { nameOf, sessionLine, spawnBody, spawnOptions, type SpawnOpts } from "../session-options.ts";

const reply = (r: SendResult) =>
  r.completed
    ? `${r.interaction.response ?? "(no text)"}\n\n— ${r.session.name} turn ${r.interaction.n}: ${r.interaction.status}${r.interaction.error ? ` (${r.interaction.error})` : ""}, $${r.interaction.costUsd.toFixed(4)}, ${r.interaction.turns} turns`
    : `queued as turn ${r.interaction.n} of ${r.session.name} (${r.session.status})`;

export function register(program: Command) {
  spawnOptions(program.command("spawn [name]").description("start a supervised Claude Code session").option("--prompt <text>", "first message"))
    .option("--wait", "wait for the reply to the first message and print it")
    .action(
      action<SpawnOpts & { wait?: boolean }, SessionView | SendResult>(
        async ({ target, team, opts, args }) => {
          const name = nameOf(args[0], opts.name);
          const body = { ...spawnBody(opts), team, name };
          if (!opts.wait || !opts.prompt) return call<SessionView>(target, "POST", "/sessions", { body: { ...body, prompt: opts.prompt } });
          await call(target, "POST", "/sessions", { body });
          return call<SendResult>(target, "POST", `/sessions/${encodeURIComponent(name)}/send`, { body: { message: opts.prompt, wait: true }, waits: true });
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
      action<SpawnOpts & { role?: string }, SessionView & { batch: number }>(
        ({ target, team, opts, args }) =>
          call(target, "POST", "/team-spawn", { body: { ...spawnBody(opts), team, name: nameOf(args[0], opts.name), prompt: opts.prompt, role: opts.role } }),
        (r) => `started ${sessionLine(r)} as a member of ${r.team}${r.batch ? ` (spawn batch ${r.batch})` : ""}`,
      ),
    );

  program
    .command("batch")
    .description("start several sessions from a JSON file: [{name, prompt, model, …}] or {sessions: […]}")
    .requiredOption("--file <path>", "the JSON file (- for stdin)")
    .action(
      action<{ file: string }, SessionView[]>(
        ({ target, team, opts }) => {
          let text: string;
          try {
            text = fs.readFileSync(opts.file === "-" ? 0 : opts.file, "utf8");
          } catch (e) {
            throw badOption("--file", `cannot read ${opts.file}: ${(e as Error).message}`);
          }
          const parsed = jsonOption("--file", text);
          const list = Array.isArray(parsed) ? parsed : (parsed as { sessions?: unknown })?.sessions;
          if (!Array.isArray(list)) throw badOption("--file", "must hold a JSON array of sessions or {sessions: […]}");
          return call(target, "POST", "/batch-spawn", {
            body: { sessions: list.map((s: Record<string, unknown>) => ({ team, workDir: process.cwd(), ...s })) },
          });
        },
        (list) => list.map((s) => `started ${sessionLine(s)}`).join("\n"),
      ),
    );

  program
    .command("fork <name> <newName>")
    .description("start a new session from another one's conversation")
    .option("--prompt <text>", "first message of the fork")
    .option("--model <model>")
    .action(
      action<{ prompt?: string; model?: string }, SessionView>(
        ({ target, opts, args }) =>
          call(target, "POST", `/sessions/${encodeURIComponent(args[0])}/fork`, { body: { newName: args[1], prompt: opts.prompt, model: opts.model } }),
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
      action<{ name?: string; message?: string; wait: boolean; waitTimeoutMs?: string; stop?: boolean }, SendResult>(async ({ target, opts, args }) => {
        const name = nameOf(args[0], opts.name);
        const message = nameOf(args[1], opts.message, "message");
        const r = await call<SendResult>(target, "POST", `/sessions/${encodeURIComponent(name)}/send`, {
          body: { message, wait: opts.wait, waitTimeoutMs: intOption("--wait-timeout-ms", opts.waitTimeoutMs) },
          waits: true,
        });
        if (opts.stop) await call(target, "POST", `/sessions/${encodeURIComponent(name)}/stop`, { body: {} });
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
      action<{ all?: boolean; status?: string; limit?: string }, SessionView[]>(
        ({ target, team, opts }) =>
          call(target, "GET", "/sessions", { query: { team: opts.all ? undefined : team, status: opts.status, limit: intOption("--limit", opts.limit) } }),
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
