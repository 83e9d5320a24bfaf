import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { OPERATOR_TOKEN_FILE } from "../../data-dir.ts";
import { CliError, EXIT } from "../api-client.ts";
import { action, type Ctx } from "../action.ts";

export function register(program: Command) {
  const token = program
    .command("token")
    .description("print the operator token (works without a running hub); see also token create / token revoke")
    .action(
      action<object, { token: string; file: string }>(
        async ({ target }) => {
          const file = path.join(target.dataDir, OPERATOR_TOKEN_FILE);
          if (!fs.existsSync(file)) throw new CliError(EXIT.hubDown, `no operator token in ${target.dataDir} yet: start the hub once (npx teamhub start)`);
          return { token: fs.readFileSync(file, "utf8").trim(), file };
        },
        (r) => r.token,
      ),
    );
  token
    .command("create <name>")
    .description("issue a bearer token for a member (or --agent for an external agent); shown once")
    .option("--agent", "an external agent rather than a team member")
    .option("--label <text>", "what the token is for")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ agent?: boolean; label?: string }>) =>
          hub.auth.createToken({ name: args[0], kind: opts.agent ? "agent" : "member", label: opts.label }),
        (r) => r.token,
      ),
    );
  token
    .command("revoke <name>")
    .description("revoke the tokens of a member or agent (all of them, or those with --label)")
    .option("--label <text>", "only tokens with this label")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ label?: string }>) => hub.auth.revoke({ name: args[0], label: opts.label }),
        (r) => `revoked ${r.revoked} token(s)`,
      ),
    );
}
