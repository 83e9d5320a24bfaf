/** HTTP calls from the CLI to a running hub; every failure becomes a CliError with its exit code. */
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
