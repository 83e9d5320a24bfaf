/**
 * Every query key of the dashboard. Team data starts with ["team", team], so one /ws event of a
 * team invalidates exactly that team's queries (a prefix match); hub-wide data (tokens) starts with ["hub"].
 *
 * One key, one shape of data. The cache keeps one entry per key whichever hook asked: a useQuery keeps the
 * endpoint's answer there, a useInfiniteQuery `{ pages, pageParams }`, so two hooks on one key read each other's
 * entry (the overview's artifact list and the Artifacts page's pages once shared one: moving between them crashed).
 * A list asked both ways gets its keys from `listKeys`, whose `list` and `pages` differ whatever their parameters;
 * the lint (eslint.config.mjs) holds an infinite query to a `pages` key and a plain one to anything else.
 */

/** What a list is asked with (limit, filters): two askings whose answers differ get two entries. */
type ListParams = Readonly<Record<string, unknown>>;

/** `all` is the list's prefix, to invalidate; `list` keys a plain answer, `pages` an infinite query's pages. */
function listKeys<Name extends string>(name: Name) {
  return {
    all: (team: string) => ["team", team, name] as const,
    list: (team: string, params: ListParams) => ["team", team, name, "list", params] as const,
    pages: (team: string, params: ListParams) => ["team", team, name, "pages", params] as const,
  };
}

export const keys = {
  team: (team: string) => ["team", team] as const,
  hub: () => ["hub"] as const,
  teams: () => ["hub", "teams"] as const,
  tokens: () => ["hub", "tokens"] as const,
  operatorToken: () => ["hub", "operator-token"] as const,
  hubs: () => ["hub", "hubs"] as const,
  runtimes: () => ["hub", "runtimes"] as const,
  overview: (team: string) => ["team", team, "overview"] as const,
  events: (team: string) => ["team", team, "events"] as const,
  artifacts: listKeys("artifacts"),
  artifact: (team: string, id: string) => ["team", team, "artifact", id] as const,
  artifactTypes: (team: string) => ["team", team, "artifact-types"] as const,
  stale: (team: string) => ["team", team, "stale"] as const,
  contracts: listKeys("contracts"),
  contract: (team: string, id: string) => ["team", team, "contract", id] as const,
  sessions: (team: string) => ["team", team, "sessions"] as const,
  session: (team: string, name: string) => ["team", team, "session", name] as const,
  approvals: (team: string) => ["team", team, "approvals"] as const,
  roster: (team: string) => ["team", team, "roster"] as const,
  inbox: listKeys("inbox"),
  messages: listKeys("messages"),
  graph: (team: string) => ["team", team, "graph"] as const,
  pipelines: (team: string) => ["team", team, "pipelines"] as const,
  pipeline: (team: string, id: string) => ["team", team, "pipeline", id] as const,
  snapshots: (team: string) => ["team", team, "snapshots"] as const,
  settings: (team: string) => ["team", team, "settings"] as const,
  permissions: (team: string) => ["team", team, "permissions"] as const,
  budgets: (team: string) => ["team", team, "budgets"] as const,
  webhooks: (team: string) => ["team", team, "webhooks"] as const,
  webhookDeliveries: (team: string, id: string) => ["team", team, "webhooks", id, "deliveries"] as const,
  overlaps: (team: string) => ["team", team, "overlaps"] as const,
  teamState: (team: string) => ["team", team, "knowledge", "state"] as const,
  wisdom: (team: string, kind: string) => ["team", team, "knowledge", "wisdom", kind] as const,
  explorations: (team: string) => ["team", team, "knowledge", "explorations"] as const,
};
