/** `limits`, `limits-release`: usage limits of the accounts sessions run on (docs/limits.md). */
import type { Command } from "commander";
import type { AccountHold } from "../../../lib/api/limits.ts";
import { action, type Ctx } from "../action.ts";

const when = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace("T", " ")} UTC` : "no reset named");

const line = (a: AccountHold) =>
  a.status === "limited"
    ? `${a.account}  ${a.label}: limited until ${when(a.resetsAt)} (${a.window ?? "usage limit"}); holds ${a.held.length ? a.held.join(", ") : "no turn yet"}`
    : `${a.account}  ${a.label}: ${a.utilization === null ? "filling up" : `${Math.round(a.utilization * 100)}% used`} of its ${a.window ?? "window"}, resets ${when(a.resetsAt)}`;

export function register(program: Command) {
  program
    .command("limits")
    .description("the accounts of --team's sessions whose usage window is used up (their turns wait) or filling up")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.limits.list({}),
        (list) => (list.length ? list.map(line).join("\n") : "no account of this team is held or near its limit"),
      ),
    );
  program
    .command("limits-release <account>")
    .description("send the turns a used-up account holds now instead of at the reset (operator, leads)")
    .option("--cancel", "cancel the waiting turns instead")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ cancel?: boolean }>) => hub.limits.release({ account: args[0], cancel: opts.cancel === true }),
        (r, opts) => (opts.cancel ? `cancelled the waiting turns` : r.released.length ? `released: ${r.released.join(", ")}` : "released; no turn was waiting"),
      ),
    );
}
