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

function headers(): Record<string, string> {
  const token = typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
}

export async function apiGet<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
  const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${path}${qs.size ? `?${qs}` : ""}`, { headers: headers() });
  const body = (await res.json()) as T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
  if (!res.ok) throw new ApiError(res.status, body.error?.code ?? "http", body.error?.message ?? res.statusText, body.error?.details);
  return body;
}
