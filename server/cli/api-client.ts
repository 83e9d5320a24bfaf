/** HTTP calls from the CLI to a running hub; every failure becomes a CliError with its exit code. */
import { HubError, HubUnreachable } from "../../lib/api/call.ts";
import { TeamHub } from "../../lib/client/team-hub.ts";
import type { HubTarget } from "./context.ts";
import { fetchWaiting } from "./waiting-request.ts";

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
export const hubOf = (target: HubTarget, team?: string) => new TeamHub({ url: target.url, token: target.token, team, waitingFetch: fetchWaiting });

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

type Query = Record<string, string | number | boolean | undefined>;

/**
 * `timeoutMs` bounds the whole request, for callers that must never hang (Claude Code hooks);
 * `waits` lifts fetch's 300 s limit on the answer, for requests that wait on purpose (team-ask).
 */
export async function call<T>(
  target: HubTarget,
  method: string,
  route: string,
  options: { query?: Query; body?: unknown; timeoutMs?: number; waits?: boolean } = {},
): Promise<T> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) qs.set(k, String(v));
  const url = `${target.url}/api${route}${qs.size ? `?${qs}` : ""}`;
  let res: Response;
  try {
    res = await (options.waits ? fetchWaiting : fetch)(url, {
      method,
      headers: {
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new CliError(
      EXIT.hubDown,
      `Team Hub is not running at ${target.url} (${cause}).\nStart it with:  npx teamhub start   (or: npm start)\nor point the CLI elsewhere with --url or TEAMHUB_URL.`,
    );
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON: something other than the hub answered on that port.
  }
  if (!res.ok) {
    const err = (body as { error?: { code?: string; message?: string } }).error;
    if (!err) throw new CliError(EXIT.failure, `${method} ${url} answered ${res.status} ${res.statusText}: is this a Team Hub?`, body);
    throw new CliError(res.status >= 500 ? EXIT.failure : EXIT.badInput, `${err.code}: ${err.message}`, body);
  }
  return body as T;
}
