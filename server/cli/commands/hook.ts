/**
 * `teamhub hook <event>`: what Claude Code runs for its SessionStart, Stop, PreCompact and
 * SessionEnd hooks (installed by `teamhub setup --hooks`). It reads the hook's JSON on stdin,
 * adds git facts from the hook's cwd, calls the hub as its token's principal, and prints the
 * hook output: the briefing as SessionStart `additionalContext`, `{}` for the others.
 *
 * A hook must never break Claude Code: whatever fails (no hub, a refused call, bad stdin) it
 * prints `{}`, writes one line to stderr and exits 0, since exit code 2 would block the session.
 */
import type { Command } from "commander";
import { HOOK_EVENTS, MAX_SUMMARY_CHARS, type HookEvent } from "../../../lib/api/continuity.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import type { TeamHub } from "../../../lib/client/team-hub.ts";
import { cliErrorOf, hubOf } from "../api-client.ts";
import { targetOf, type GlobalOptions } from "../context.ts";
import { factsSinceCheckpoint, gitFacts } from "../git-facts.ts";

// Claude Code waits for its hooks; a hung hub or stdin must not hold a session up for long.
const HUB_TIMEOUT_MS = 5000;
const STDIN_TIMEOUT_MS = 5000;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve) => {
    process.stdin.on("data", (c: Buffer) => chunks.push(c));
    process.stdin.once("end", resolve);
    process.stdin.once("error", resolve);
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, STDIN_TIMEOUT_MS)))]);
  clearTimeout(timer);
  process.stdin.destroy();
  return Buffer.concat(chunks).toString("utf8");
}

function hookJson(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("stdin: must be the hook's JSON object");
  return value as Record<string, unknown>;
}

/** Each hub call gets its own limit, as each git call has. */
const limited = () => ({ signal: AbortSignal.timeout(HUB_TIMEOUT_MS) });

async function run(hub: TeamHub, event: HookEvent, hook: Record<string, unknown>): Promise<object> {
  const cwd = typeof hook.cwd === "string" ? hook.cwd : process.cwd();
  const sessionId = typeof hook.session_id === "string" ? hook.session_id : undefined;
  // The hub keeps a bounded summary; sending one character more tells it the reply was longer.
  if (typeof hook.last_assistant_message === "string") hook.last_assistant_message = hook.last_assistant_message.slice(0, MAX_SUMMARY_CHARS + 1);
  const git = event === "session-start" ? await factsSinceCheckpoint(hub, cwd, { claudeSessionId: sessionId }, limited()) : gitFacts(cwd);
  const out = await hub.continuity.hook(asTyped(api.continuity.hook, { event, hook, git }), limited());
  return out.briefing ? { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: out.briefing.markdown } } : {};
}

export function register(program: Command) {
  program
    .command("hook [event]")
    .description(`a Claude Code hook (${HOOK_EVENTS.join(" | ")}): reads the hook JSON on stdin, prints the hook output; never fails the session`)
    .action(async function (this: Command, event: string | undefined) {
      const opts = this.optsWithGlobals() as GlobalOptions;
      let output: object = {};
      try {
        if (!HOOK_EVENTS.includes(event as HookEvent)) throw new Error(`event: must be one of ${HOOK_EVENTS.join(", ")} (got '${event ?? ""}')`);
        output = await run(hubOf(targetOf(opts), opts.team ?? "default"), event as HookEvent, hookJson(await readStdin()));
      } catch (e) {
        process.stderr.write(`teamhub hook ${event ?? ""}: ${cliErrorOf(e).message.split("\n")[0]}\n`);
      }
      process.stdout.write(`${JSON.stringify(output)}\n`);
      process.exitCode = 0;
    });
}
