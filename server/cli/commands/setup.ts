/**
 * `teamhub setup`: connects Claude Code to this hub. Registers the MCP endpoint with a bearer
 * token of its own (a member token labelled for this setup, or the operator's with --operator),
 * optionally writes the guide into CLAUDE.md between markers and installs the session-continuity
 * hooks (carrying the same token), and `--uninstall` removes exactly those: the server entry, the
 * block, the hooks, and the token. Running it twice leaves one of each.
 */
import path from "node:path";
import type { Command } from "commander";
import { cliErrorOf, CliError, EXIT } from "../api-client.ts";
import { action } from "../action.ts";
import { orSetupAgain } from "./runnable.ts";
import { removeGuide, writeGuide } from "../setup/claude-md.ts";
import { claudeDir, register as registerServer, unregister, type Scope } from "../setup/claude-config.ts";
import { hasHooks, hookCommand, installHooks, readSettings, settingsFile, uninstallHooks } from "../setup/claude-hooks.ts";

type Opts = { global?: boolean; local?: boolean; guide?: boolean; hooks?: boolean; uninstall?: boolean; as: string; operator?: boolean; project?: string };
type Outcome = {
  scope: Scope;
  project: string | null;
  server: string;
  principal: string;
  guide: string | null;
  hooks: string | null;
  token: string;
  warnings: string[];
};

export function register(program: Command) {
  program
    .command("setup [session]")
    .description(
      "register this hub with Claude Code (MCP over HTTP with a bearer token); --uninstall removes exactly what it added. " +
        "With a session: set its work tree up again (docs/worktrees.md#setup)",
    )
    .option("--local", "for the current project only (default): Claude Code's local scope")
    .option("--global", "for all your projects: Claude Code's user scope")
    .option("--guide", "also write the orchestrator and worker guides into CLAUDE.md, between markers")
    .option("--hooks", "also install Claude Code hooks: a briefing at SessionStart, checkpoints at Stop, PreCompact and SessionEnd")
    .option("--uninstall", "remove the server entry, the CLAUDE.md block, the hooks and the token this setup made")
    .option("--as <name>", "the member Claude Code acts as", "claude-code")
    .option("--operator", "use the operator token instead of a member token (full powers)")
    .option("--project <dir>", "the project directory (default: the current one)")
    .action(
      orSetupAgain(
        action<Opts, Outcome>(
          async ({ hub, target, team, opts }) => {
            if (opts.global && opts.local) throw new CliError(EXIT.badInput, "--global/--local: choose one");
            const scope: Scope = opts.global ? "user" : "local";
            const project = path.resolve(opts.project ?? process.cwd());
            const label = scope === "user" ? "claude-code setup (global)" : `claude-code setup (${project})`;
            const claudeMd = scope === "user" ? path.join(claudeDir(), "CLAUDE.md") : path.join(project, "CLAUDE.md");
            const settings = settingsFile(scope, project);
            const base = { scope, project: scope === "local" ? project : null, principal: opts.operator ? "operator" : opts.as, warnings: [] as string[] };
            if (opts.uninstall) {
              const hooks = uninstallHooks(settings, target.dataDir);
              const server = unregister(scope, project);
              const guide = removeGuide(claudeMd);
              let token = "none to revoke (operator token)";
              if (!opts.operator) {
                try {
                  const r = await hub.auth.revoke({ name: opts.as, label });
                  token = `revoked ${r.revoked}`;
                } catch (e) {
                  token = "not revoked";
                  base.warnings.push(
                    `the token could not be revoked (${cliErrorOf(e).message.split("\n")[0]}); later run: teamhub token revoke ${opts.as} --label "${label}"`,
                  );
                }
              }
              return { ...base, server, guide: guide === "absent" ? null : `${guide} ${claudeMd}`, hooks, token };
            }
            // A settings file the hooks cannot go into is refused before anything changes. Hooks installed
            // earlier carry the token this run replaces, so they are renewed even without --hooks.
            const withHooks = opts.hooks || hasHooks(settings);
            if (withHooks) readSettings(settings);
            let token: string;
            if (opts.operator) {
              if (!target.token) throw new CliError(EXIT.hubDown, "no operator token found: start the hub once, or pass --token");
              token = target.token;
            } else {
              // Re-running replaces this setup's token rather than piling up working ones.
              await hub.auth.revoke({ name: opts.as, label });
              token = (await hub.auth.createToken({ name: opts.as, kind: "member", label })).token;
            }
            const server = registerServer(scope, project, { type: "http", url: `${target.url}/mcp`, headers: { Authorization: `Bearer ${token}` } });
            const guide = opts.guide ? `${writeGuide(claudeMd)} ${claudeMd}` : null;
            const hooks = withHooks
              ? installHooks(settings, target.dataDir, (event) => hookCommand(event, { url: target.url, token, team }), scope === "local")
              : null;
            return { ...base, server, guide, hooks, token: opts.operator ? "operator token" : `new member token for '${opts.as}'` };
          },
          (o) =>
            [
              `${o.server}`,
              `  acts as: ${o.principal}; token: ${o.token}`,
              o.guide ? `  guide: ${o.guide}` : null,
              o.hooks ? `  hooks: ${o.hooks}` : null,
              ...o.warnings.map((w) => `  warning: ${w}`),
            ]
              .filter(Boolean)
              .join("\n"),
        ),
      ),
    );
}
