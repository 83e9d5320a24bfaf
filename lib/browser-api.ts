/** fetch for the dashboard: same origin, optional token from settings, typed errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

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
  if (!res.ok) throw new ApiError(res.status, parsed.error?.code ?? "http", parsed.error?.message ?? res.statusText, parsed.error?.details);
  return parsed;
}

export const apiGet = <T>(path: string, query: Query = {}) => request<T>("GET", path, query);

/** A change: POST/PUT/PATCH/DELETE with a JSON body; the hub's error message becomes the thrown ApiError's. */
export const apiSend = <T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body: unknown = {}, query: Query = {}) =>
  request<T>(method, path, query, body);
