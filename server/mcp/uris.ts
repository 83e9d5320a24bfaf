/** teamhub:// resource URIs: one place builds and parses them, so notifications match subscriptions. */
export type ResourceKind = "artifact" | "contract" | "pipeline" | "snapshot";

const PATTERN = /^teamhub:\/\/teams\/([^/]+)\/(artifacts|contracts|pipelines|snapshots)\/([^/]+)(?:\/versions\/(\d+))?$/;

export function resourceUri(kind: ResourceKind, team: string, id: string): string {
  return `teamhub://teams/${encodeURIComponent(team)}/${kind}s/${encodeURIComponent(id)}`;
}

export function parseResourceUri(uri: string): { kind: ResourceKind; team: string; id: string; version: number | null } | null {
  const m = PATTERN.exec(uri);
  if (!m || (m[4] && m[2] !== "artifacts")) return null;
  return { kind: m[2].slice(0, -1) as ResourceKind, team: decodeURIComponent(m[1]), id: decodeURIComponent(m[3]), version: m[4] ? Number(m[4]) : null };
}
