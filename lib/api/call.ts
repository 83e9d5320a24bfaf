/**
 * The checked fetch: one endpoint call, its response parsed by the endpoint's schema. A success
 * that does not match the schema is an error here, not a surprise three calls later; a failure
 * becomes a HubError with the hub's code, message and details. The client library, the CLI and
 * the dashboard all call the hub through this function (docs/wire.md).
 */
import { z } from "zod";
import { ErrorBody, type Endpoint, type InputOf, type OutputOf } from "./endpoint.ts";

export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "HubError";
  }
}

/** Nothing answered at the hub's address (refused, reset, timed out). */
export class HubUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Team Hub is not reachable at ${url} (${reason})`);
    this.name = "HubUnreachable";
  }
}

/** What the client reads of an answer: fetch's Response has it, and so has the CLI's request over node:http. */
export type FetchAnswer = { ok: boolean; status: number; statusText: string; text(): Promise<string> };

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<FetchAnswer>;

export type Transport = {
  /** The hub's origin, e.g. http://localhost:3000; "" in the browser (same origin). */
  baseUrl: string;
  token?: string | null;
  fetch?: FetchLike;
  /** For requests that wait on purpose (`endpoint.waits`): a fetch without a response-time limit. */
  waitingFetch?: FetchLike;
};

type Scalar = string | number | boolean;

/** The endpoint's URL with its `:name` segments filled in, and the input fields left for the query or body. */
export function urlOf(endpoint: Endpoint, input: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === "")
      throw new HubError(0, "invalid_input", `${name}: is required (it is part of the path ${endpoint.path})`, { field: name, rule: "required" });
    return encodeURIComponent(String(value));
  });
  return { path: `/api${path}`, rest };
}

const queryOf = (rest: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(rest).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v as Scalar)]])));

export async function callEndpoint<E extends Endpoint>(
  transport: Transport,
  endpoint: E,
  input: InputOf<E>,
  options: { signal?: AbortSignal } = {},
): Promise<OutputOf<E>> {
  const { path, rest } = urlOf(endpoint, (input ?? {}) as Record<string, unknown>);
  const read = endpoint.method === "GET";
  const qs = read ? queryOf(rest) : new URLSearchParams();
  const url = `${transport.baseUrl}${path}${qs.size ? `?${qs}` : ""}`;
  const hasBody = !read && Object.keys(rest).length > 0;
  const doFetch = (endpoint.waits ? transport.waitingFetch : undefined) ?? transport.fetch ?? fetch;
  let res: FetchAnswer;
  try {
    res = await doFetch(url, {
      method: endpoint.method,
      headers: { ...(transport.token ? { authorization: `Bearer ${transport.token}` } : {}), ...(hasBody ? { "content-type": "application/json" } : {}) },
      body: hasBody ? JSON.stringify(rest) : undefined,
      signal: options.signal,
    });
  } catch (e) {
    if ((e as Error).name === "AbortError" || options.signal?.aborted) throw e;
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new HubUnreachable(transport.baseUrl || "this origin", cause);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new HubError(res.status, "not_a_hub", `${endpoint.method} ${url} answered ${res.status} with text that is not JSON: is this a Team Hub?`);
  }
  if (!res.ok) {
    const failure = ErrorBody.safeParse(body);
    if (!failure.success)
      throw new HubError(res.status, "not_a_hub", `${endpoint.method} ${url} answered ${res.status} ${res.statusText}: is this a Team Hub?`);
    throw new HubError(res.status, failure.data.error.code, failure.data.error.message, failure.data.error.details);
  }
  const parsed = endpoint.output.safeParse(body);
  if (!parsed.success) {
    throw new HubError(
      res.status,
      "bad_response",
      `the answer of ${endpoint.method} ${endpoint.path} does not match its schema:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data as OutputOf<E>;
}
