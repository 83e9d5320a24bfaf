import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { RunnableConfig } from "../../../lib/api/runnable.ts";
import { badOption, checkedOption, intOption, jsonOption, numberOption } from "../options.ts";

type SettingOption =
  | "wake"
  | "gateEnforcement"
  | "chatRateLimit"
  | "chatLoopMax"
  | "chatLoopWindow"
  | "inboxLiveLimit"
  | "maxPreset"
  | "rootDir"
  | "maxCost"
  | "maxTurns"
  | "maxTimeoutMs"
  | "worktree";

const WORKTREE_FIELDS = Object.keys(RunnableConfig.shape);

/** `--worktree '{"setup":"npm ci","ports":2}'` (checked here as the hub checks it), or `none` to clear it. */
function worktreeOption(text: string | undefined) {
  if (text === undefined) return undefined;
  if (text.trim() === "none") return null;
  const value = jsonOption("--worktree", text);
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw badOption("--worktree", `must be a JSON object, e.g. '{"setup":"npm ci","ports":2}', or none`);
  // A typo ("setpu") is named with the fields there are, not only refused.
  const unknown = Object.keys(value).filter((k) => !WORKTREE_FIELDS.includes(k));
  if (unknown.length) throw badOption("--worktree", `unknown field '${unknown[0]}' (the fields are ${WORKTREE_FIELDS.join(", ")})`);
  return checkedOption("--worktree", RunnableConfig, value);
}

export function register(program: Command) {
  program
    .command("teams")
    .description("list teams")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.teams.list({}),
        (r) =>
          table(
            r.map((t) => ({ ...t, archived: t.archivedAt ? "yes" : "" })),
            ["id", "archived"],
          ),
      ),
    );
  program
    .command("team-create <id>")
    .description("create a team explicitly (writes create teams implicitly too)")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.teams.create({ id: args[0] }),
        (t) => `created team ${t.id}`,
      ),
    );
  program
    .command("team-archive <id>")
    .description("archive a team: it stays readable and refuses changes")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.teams.archive({ team: args[0] }),
        (t) => `archived team ${t.id}`,
      ),
    );
  program
    .command("demo")
    .description("fill --team (which must be empty) with the Quick Start chain as a demo: three contracts, three artifacts with lineage")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.teams.demo(),
        (d) =>
          `Quick Start demo in team ${d.team}\n` +
          `  contracts: ${d.contracts.map((c) => `${c.id} (${c.status})`).join(" → ")}\n` +
          `  artifacts: ${d.artifacts.join(" → ")}\n` +
          `  see it: teamhub contract-list --team ${d.team}, or the dashboard's canvas`,
      ),
    );
  program
    .command("team-settings")
    .description("show the team's options, or change them (operator only)")
    .option("--wake <on|off>", "wake idle sessions when their contract becomes ready or a message arrives")
    .option("--gate-enforcement <on|off>", "require a passing phase gate between team_spawn batches")
    .option("--chat-rate-limit <n>", "messages per minute one sender may send")
    .option("--chat-loop-max <n>", "exchanges between one pair within the loop window before it is blocked")
    .option("--chat-loop-window <seconds>")
    .option("--inbox-live-limit <n>", "newest messages kept live per inbox; older ones are archived")
    .option("--max-preset <preset>", "widest preset a member may spawn (read-only = plan < review < edit < full)")
    .option("--root-dir <path>", "members spawn sessions only inside this directory")
    .option("--max-cost <usd>", "most cost (USD) a member may give a session it spawns")
    .option("--max-turns <n>", "most turns a member may give a session it spawns")
    .option("--max-timeout-ms <ms>", "longest time per interaction a member may give a session it spawns")
    .option(
      "--worktree <json|none>",
      "what makes work trees runnable where the repository has no teamhub.json: JSON of setup, run, archive, ports, setupTimeoutMs; none clears it",
    )
    .action(
      action(
        ({ hub, opts }: Ctx<Partial<Record<SettingOption, string>>>) => {
          const changes = {
            wake: opts.wake,
            gateEnforcement: opts.gateEnforcement,
            chatRateLimitPerMinute: intOption("--chat-rate-limit", opts.chatRateLimit),
            chatLoopMaxExchanges: intOption("--chat-loop-max", opts.chatLoopMax),
            chatLoopWindowSeconds: intOption("--chat-loop-window", opts.chatLoopWindow),
            inboxLiveLimit: intOption("--inbox-live-limit", opts.inboxLiveLimit),
            maxPreset: opts.maxPreset,
            rootDir: opts.rootDir,
            maxCostUsd: numberOption("--max-cost", opts.maxCost),
            maxTurns: intOption("--max-turns", opts.maxTurns),
            maxTimeoutMs: intOption("--max-timeout-ms", opts.maxTimeoutMs),
            worktree: worktreeOption(opts.worktree),
          };
          return Object.values(changes).some((v) => v !== undefined)
            ? hub.teams.updateSettings(asTyped(api.teams.updateSettings, changes))
            : hub.teams.settings();
        },
        (t) =>
          Object.entries(t)
            .map(([k, v]) => `${k}: ${v !== null && typeof v === "object" ? JSON.stringify(v) : v}`)
            .join("\n"),
      ),
    );
  program
    .command("lead-grant <name>")
    .description("let a member or agent do the team's team-wide operations (reset, rollback, settings, approvals, …) on --team (operator only)")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.leads.grant({ name: args[0] }),
        (l) => `${l.principal} is now a lead of team ${l.team}`,
      ),
    );
  program
    .command("lead-revoke <name>")
    .description("take back a lead grant on --team (operator only)")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.leads.revoke({ name: args[0] }),
        (r) => `${r.revoked} is no longer a lead of team ${r.team}`,
      ),
    );
  program
    .command("leads")
    .description("the leads of --team (operator only)")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.leads.list(),
        (r) =>
          table(
            r.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() })),
            ["principal", "grantedBy", "createdAt"],
          ),
      ),
    );
  program
    .command("events")
    .description("the team's event log: newest first, or after an event id oldest first")
    .option("--after <id>")
    .option("--type <type>")
    .option("--hub", "hub-wide events (tokens issued and revoked) instead of the team's")
    .option("--limit <n>")
    .action(
      action(
        ({ hub, opts }: Ctx<{ after?: string; type?: string; limit?: string; hub?: boolean }>) =>
          hub.events.list({ hub: opts.hub, after: intOption("--after", opts.after), type: opts.type, limit: intOption("--limit", opts.limit) }),
        (r) =>
          table(
            r.events.map((e) => ({ ...e, at: e.at.toISOString() })),
            ["id", "type", "subject", "principal", "at"],
          ),
      ),
    );
}
