/** fetch for the dashboard: same origin, optional token from settings, typed errors. */
import { callEndpoint, HubError } from "./api/call.ts";
import type { Endpoint, InputOf, OutputOf } from "./api/endpoint.ts";

export { HubError as ApiError };

export const TOKEN_KEY = "teamhub.token";

type Query = Record<string, string | number | boolean | undefined>;

function headers(json: boolean): Record<string, string> {
  const token = typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY);
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { "content-type": "application/json" } : {}) };
}

async function request<T>(method: string, path: string, query: Query, body?: unknown): Promise<T> {
  const qs = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  const res = await fetch(`${path}${qs.size ? `?${qs}` : ""}`, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
  if (!res.ok) throw new HubError(res.status, parsed.error?.code ?? "http", parsed.error?.message ?? res.statusText, parsed.error?.details);
  return parsed;
}

export const apiGet = <T>(path: string, query: Query = {}) => request<T>("GET", path, query);

/** A change: POST/PUT/PATCH/DELETE with a JSON body; the hub's error message becomes the thrown ApiError's. */
export const apiSend = <T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body: unknown = {}, query: Query = {}) =>
  request<T>(method, path, query, body);

/** One endpoint of lib/api/endpoints, its answer checked by the endpoint's schema. */
export const apiCall = <E extends Endpoint>(endpoint: E, input: InputOf<E>): Promise<OutputOf<E>> =>
  callEndpoint({ baseUrl: "", token: typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY) }, endpoint, input);
