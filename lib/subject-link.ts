/**
 * The dashboard page of what an event is about, from its subject (`artifact:api-spec@v2`, `contract:build-api`,
 * `session:qa`); null for subjects no page shows on its own (a team, a pair of members, a budget).
 */
export function subjectHref(subject: string): string | null {
  const colon = subject.indexOf(":");
  if (colon < 0) return null;
  const kind = subject.slice(0, colon);
  const id = subject.slice(colon + 1);
  const enc = encodeURIComponent;
  switch (kind) {
    case "artifact":
      return `/artifacts/${enc(id.replace(/@v\d+$/, ""))}`;
    case "contract":
      return `/canvas?contract=${enc(id)}`;
    case "session":
      return `/sessions/${enc(id)}`;
    case "pipeline":
      return `/pipelines/${enc(id)}`;
    case "snapshot":
      return "/snapshots";
    default:
      return null;
  }
}
