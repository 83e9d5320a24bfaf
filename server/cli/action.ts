/**
 * Every command runs through `action`: it resolves the hub, runs the command, prints either the
 * human rendering or `--json`, and turns errors into the documented exit codes
 * (0 ok, 1 failure, 2 bad input or refused by the hub, 3 hub not running).
 */
import type { Command } from "commander";
import { CliError, EXIT } from "./api-client.ts";
import { targetOf, type GlobalOptions, type HubTarget } from "./context.ts";

export type Run<O, R> = (ctx: { target: HubTarget; team: string; opts: O & GlobalOptions; args: string[] }) => Promise<R>;

export function action<O, R>(run: Run<O, R>, human: (result: R) => string) {
  return async function (this: Command, ...rest: unknown[]) {
    const opts = this.optsWithGlobals() as O & GlobalOptions;
    const args = rest.slice(0, -2).filter((a): a is string => typeof a === "string");
    try {
      const result = await run({ target: targetOf(opts), team: opts.team ?? "default", opts, args });
      process.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `${human(result)}\n`);
      process.exitCode = EXIT.ok;
    } catch (e) {
      const err = e instanceof CliError ? e : new CliError(EXIT.failure, (e as Error).message);
      if (opts.json) process.stdout.write(`${JSON.stringify(err.body ?? { error: { code: "cli", message: err.message } }, null, 2)}\n`);
      else process.stderr.write(`teamhub: ${err.message}\n`);
      process.exitCode = err.exitCode;
    }
  };
}
