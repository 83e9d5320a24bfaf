/** Where the dashboard shows code: a session's Changes tab (up to a commit) and two branches compared. */

export const changesAt = (session: string, commit?: string) => `/sessions/${encodeURIComponent(session)}?tab=changes${commit ? `&at=${commit}` : ""}`;

export const compareHref = (team: string, a: string, b: string) => `/compare?${new URLSearchParams({ team, a, b }).toString()}`;
