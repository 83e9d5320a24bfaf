/**
 * Every command runs through `action`: it resolves the hub, runs the command, prints either the
 * human rendering or `--json`, and turns errors into the documented exit codes
 * (0 ok, 1 failure, 2 bad input or refused by the hub, 3 hub not running).
 */
import type { Command } from "commander";
import type { TeamHub } from "../../lib/client/team-hub.ts";
import { cliErrorOf, EXIT, hubOf } from "./api-client.ts";
import { targetOf, type GlobalOptions, type HubTarget } from "./context.ts";

/** `hub` is the client library on the resolved hub and team: commands call it, not fetch. */
export type Ctx<O> = { hub: TeamHub; target: HubTarget; team: string; opts: O & GlobalOptions; args: string[] };
export type Run<O, R> = (ctx: Ctx<O>) => Promise<R>;

/** `human` renders the result for a person, with the command's options (e.g. `--patch`) at hand. */
export function action<O, R>(run: Run<O, R>, human: (result: R, opts: O & GlobalOptions) => string) {
  return async function (this: Command, ...rest: unknown[]) {
    const opts = this.optsWithGlobals() as O & GlobalOptions;
    // A variadic argument (`<ids...>`) arrives as an array: flattened, its values follow the others in order.
    const args = rest
      .slice(0, -2)
      .flat()
      .filter((a): a is string => typeof a === "string");
    try {
      const target = targetOf(opts);
      const team = opts.team ?? "default";
      const result = await run({ hub: hubOf(target, team), target, team, opts, args });
      process.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `${human(result, opts)}\n`);
      process.exitCode = EXIT.ok;
    } catch (e) {
      const err = cliErrorOf(e);
      if (opts.json) process.stdout.write(`${JSON.stringify(err.body ?? { error: { code: "cli", message: err.message } }, null, 2)}\n`);
      else process.stderr.write(`teamhub: ${err.message}\n`);
      process.exitCode = err.exitCode;
    }
  };
}
