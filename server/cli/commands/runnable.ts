/**
 * `runnable`, `setup-log`, `setup <session>`, `run`: a session's runnable work tree (docs/worktrees.md#runnable-work-trees):
 * its ports and config, the output of its setup, run and archive commands (followed live over /ws), setting it up
 * again, and starting or stopping its run command.
 */
import type { Command } from "commander";
import { OUTPUT_KINDS, type OutputKind, type OutputPiece, type OutputView, type RunnableState } from "../../../lib/api/runnable.ts";
import { ENDED_STATUSES } from "../../../lib/api/sessions.ts";
import type { TeamHub } from "../../../lib/client/team-hub.ts";
import { action, type Ctx } from "../action.ts";
import { badOption, choiceOption, intOption } from "../options.ts";

/** How long `run` waits for the hub to report the command started or stopped before printing the state as it is. */
const RUN_WAIT_MS = 20_000;

const exitOf = (code: number | null) => (code === null ? "" : ` (exit ${code})`);

function setupLine(s: RunnableState): string {
  const command = s.config?.setup;
  if (!command) return "setup: none configured";
  const status = s.setup.status;
  const what =
    status === "failed"
      ? `failed${exitOf(s.setup.exitCode)}${s.setup.error ? ` — ${s.setup.error}` : ""}`
      : status === "succeeded"
        ? `succeeded${exitOf(s.setup.exitCode)}`
        : status === "running"
          ? "running"
          : status === "pending"
            ? "pending (runs before the session's next turn)"
            : "not run";
  return `setup: ${command} — ${what}`;
}

function runLine(s: RunnableState): string {
  const command = s.config?.run;
  if (!command) return "run: none configured";
  const what =
    s.run.status === "running"
      ? `running${s.run.url ? ` at ${s.run.url}` : ""}`
      : s.run.status === "exited"
        ? `exited${exitOf(s.run.exitCode)}`
        : s.run.status === "stopped"
          ? "stopped"
          : "not started";
  return `run: ${command} — ${what}`;
}

/** What `runnable`, `setup-again` and `run` print: the config's source, ports, copied files, setup and run. */
export function renderRunnable(s: RunnableState): string {
  const ports = s.ports.length ? s.ports.map((p, i) => (i === 0 ? `${p} (PORT)` : String(p))).join(", ") : "none";
  return [
    `${s.name}: ${s.config ? `configured by ${s.config.source}` : "no teamhub.json and no team setting: nothing to set up or run"}`,
    `ports: ${ports}`,
    `included: ${s.included.length ? s.included.join(", ") : "none"}`,
    setupLine(s),
    runLine(s),
    ...(s.config?.archive ? [`archive: ${s.config.archive}`] : []),
  ].join("\n");
}

/** One line on where a command's output stands, after it. */
function outputEnd(kind: OutputKind, s: RunnableState): string {
  if (kind === "setup") return setupLine(s);
  if (kind === "run") return runLine(s);
  return s.config?.archive ? `archive: ${s.config.archive}` : "archive: none configured";
}

/** The output read, and a line on where the command stands (`summary`, printed after it). */
type Log = OutputView & { summary: string };

/**
 * Reads the stored output after `after`, page by page; `running` is the last page's (a full page says true too).
 * A pending setup counts as running while its session is live: it is about to start.
 */
async function readOutput(hub: TeamHub, name: string, kind: OutputKind, after: number, take: (p: OutputPiece[]) => void) {
  let view: OutputView;
  do {
    view = await hub.worktrees.commandOutput({ name, kind, after });
    take(view.pieces);
    after = view.pieces.at(-1)?.id ?? after;
  } while (view.running && view.pieces.length > 0);
  const state = await hub.worktrees.runnable({ name });
  let running = view.running;
  if (!running && kind === "setup" && state.setup.status === "pending") {
    const status = (await hub.sessions.status({ name })).status;
    running = !(ENDED_STATUSES as readonly string[]).includes(status);
  }
  return { running, state };
}

/**
 * Follows a command's output until it is no longer running. Waits on the hub's /ws push (`process_output` frames of
 * the session, and its events to notice the end), never on a timer: the stored pieces are read once subscribed, after
 * a reconnect and whenever an event of the session arrives; pieces are printed once each, by id.
 */
async function follow(hub: TeamHub, name: string, kind: OutputKind, print: (text: string) => void): Promise<Log> {
  type Wake = { piece: OutputPiece } | { check: true };
  const stream = hub.live<Wake>({
    // Every team the token may read: a session's name is the hub's, whatever --team says.
    teams: [],
    sessions: [name],
    read: (f) => {
      if (f.type === "process_output") return f.payload.session === name && f.payload.piece.kind === kind ? [{ piece: f.payload.piece }] : [];
      return f.type === "event" && f.payload.subject === `session:${name}` ? [{ check: true }] : [];
    },
    catchUp: async () => [{ check: true }],
  });
  const pieces: OutputPiece[] = [];
  let after = 0;
  const take = (more: OutputPiece[]) => {
    for (const p of more) {
      if (p.id <= after) continue;
      after = p.id;
      pieces.push(p);
      print(p.text);
    }
  };
  try {
    await stream.ready;
    let end = await readOutput(hub, name, kind, after, take);
    if (end.running) {
      for await (const wake of stream) {
        if ("piece" in wake) take([wake.piece]);
        else if (!(end = await readOutput(hub, name, kind, after, take)).running) break;
      }
    }
    return { name, kind, pieces, running: false, summary: outputEnd(kind, end.state) };
  } finally {
    stream.close();
  }
}

/** Everything stored so far, without waiting. */
async function stored(hub: TeamHub, name: string, kind: OutputKind, after: number): Promise<Log> {
  const pieces: OutputPiece[] = [];
  const end = await readOutput(hub, name, kind, after, (more) => pieces.push(...more));
  return { name, kind, pieces, running: end.running, summary: outputEnd(kind, end.state) };
}

/**
 * `run`: asks for the start (or stop), then waits for the hub's supervisor to report it (worktree.run_started or
 * run_exited, over /ws), so what it prints is the command's state, not the request's.
 */
async function runOrStop(hub: TeamHub, name: string, stop: boolean): Promise<RunnableState> {
  const ends = stop ? ["worktree.run_exited"] : ["worktree.run_started", "worktree.run_exited"];
  const signal = AbortSignal.timeout(RUN_WAIT_MS);
  const stream = hub.subscribe({ teams: [], types: ends, signal });
  try {
    await stream.ready;
    const asked = await hub.worktrees.run({ name, stop });
    if (stop ? asked.run.status === "running" : asked.run.status !== "running") {
      for await (const e of stream) if (e.subject === `session:${name}`) break;
    }
  } catch (e) {
    // Not reported in time: the state as it is says so ("not started", still "running").
    if (!signal.aborted) throw e;
  } finally {
    stream.close();
  }
  return hub.worktrees.runnable({ name });
}

/** Options of `teamhub setup` that register Claude Code: with a session name they mean nothing, so they are refused. */
const CLAUDE_SETUP_OPTIONS = ["local", "global", "guide", "hooks", "uninstall", "operator", "project"] as const;

/**
 * `teamhub setup <session>`: the session's work tree set up again with the base branch's config (an ended session is
 * resumed; its queued turns wait for setup). `teamhub setup` without a session registers Claude Code (setup.ts), so
 * that command's action is wrapped: a session name comes here, and its Claude Code options are refused with it.
 */
export function orSetupAgain(claudeCode: ReturnType<typeof action>) {
  const again = action(
    async ({ hub, opts, args }: Ctx<Partial<Record<(typeof CLAUDE_SETUP_OPTIONS)[number], unknown>> & { as?: string }>) => {
      const given = CLAUDE_SETUP_OPTIONS.find((o) => opts[o] !== undefined && opts[o] !== false) ?? (opts.as !== "claude-code" ? "as" : undefined);
      if (given) throw badOption(`--${given}`, `registers Claude Code and takes no session name ('teamhub setup ${args[0]}' sets its work tree up again)`);
      return hub.worktrees.setup({ name: args[0] });
    },
    (s) => `${renderRunnable(s)}\n(teamhub setup-log ${s.name} --follow to watch it)`,
  );
  return function (this: Command, ...rest: unknown[]) {
    return (typeof rest[0] === "string" ? again : claudeCode).apply(this, rest);
  };
}

export function register(program: Command) {
  program
    .command("runnable <session>")
    .description("the session's runnable work tree: where its config comes from, its ports, copied files, setup and run state")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.worktrees.runnable({ name: args[0] }),
        (s) => renderRunnable(s),
      ),
    );
  program
    .command("setup-log <session>")
    .description("what the session's setup (or run, archive) command printed; --follow keeps reading until it is done")
    .option("--kind <kind>", `${OUTPUT_KINDS.join(" | ")} (default setup)`)
    .option("--follow", "keep printing as the command prints, until it is no longer running")
    .option("--after <id>", "only output after this piece id")
    .action(
      action(
        async ({ hub, opts, args }: Ctx<{ kind?: string; follow?: boolean; after?: string }>) => {
          const kind = choiceOption("--kind", OUTPUT_KINDS, opts.kind) ?? "setup";
          const after = intOption("--after", opts.after) ?? 0;
          if (!opts.follow) return stored(hub, args[0], kind, after);
          // Printed as it comes; --json prints it all at the end, as one answer.
          let last = "\n";
          const log = await follow(hub, args[0], kind, (text) => {
            if (opts.json) return;
            process.stdout.write(text);
            last = text;
          });
          if (!opts.json && !last.endsWith("\n")) process.stdout.write("\n");
          return log;
        },
        (log, opts) => {
          const end = `(${log.summary}${log.running ? "; still running: --follow to keep reading" : ""})`;
          // Followed, the output is printed already.
          if (opts.follow) return end;
          const text = log.pieces.map((p) => p.text).join("");
          return text ? `${text}${text.endsWith("\n") ? "" : "\n"}${end}` : `(no ${log.kind} output) ${end}`;
        },
      ),
    );
  program
    .command("run <session>")
    .description("start the repository's run command (a dev server) in the session's work tree, on its PORT; --stop stops it")
    .option("--stop", "stop it instead")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ stop?: boolean }>) => runOrStop(hub, args[0], opts.stop === true),
        (s) => renderRunnable(s),
      ),
    );
}
