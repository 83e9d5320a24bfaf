/** The CLI's hub: the client library, with every failure turned into a CliError and its exit code. */
import { HubError, HubUnreachable } from "../../lib/api/call.ts";
import { TeamHub } from "../../lib/client/team-hub.ts";
import type { HubTarget } from "./context.ts";
import { fetchOverHttp, fetchWaiting } from "./http-request.ts";

export const EXIT = { ok: 0, failure: 1, badInput: 2, hubDown: 3 } as const;

export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

/** The client library pointed at the CLI's hub; the commands are built on it. */
export const hubOf = (target: HubTarget, team?: string) =>
  new TeamHub({ url: target.url, token: target.token, team, fetch: fetchOverHttp, waitingFetch: fetchWaiting });

/** A failure of a client call, as the CLI reports it: the hub down is exit 3, a refusal exit 2. */
export function cliErrorOf(e: unknown): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof HubUnreachable) {
    return new CliError(
      EXIT.hubDown,
      `Team Hub is not running at ${e.url} (${e.reason}).\nStart it with:  npx teamhub start   (or: npm start)\nor point the CLI elsewhere with --url or TEAMHUB_URL.`,
    );
  }
  if (e instanceof HubError) {
    const body = { error: { code: e.code, message: e.message, details: e.details } };
    return new CliError(e.status >= 500 || e.status === 0 || e.code === "bad_response" ? EXIT.failure : EXIT.badInput, `${e.code}: ${e.message}`, body);
  }
  return new CliError(EXIT.failure, (e as Error).message);
}
