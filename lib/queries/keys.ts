/**
 * Every query key of the dashboard. Team data starts with ["team", team], so one /ws event of a
 * team invalidates exactly that team's queries; hub-wide data (tokens) starts with ["hub"].
 */
export const keys = {
  team: (team: string) => ["team", team] as const,
  hub: () => ["hub"] as const,
  teams: () => ["hub", "teams"] as const,
  tokens: () => ["hub", "tokens"] as const,
  operatorToken: () => ["hub", "operator-token"] as const,
  hubs: () => ["hub", "hubs"] as const,
  overview: (team: string) => ["team", team, "overview"] as const,
  events: (team: string) => ["team", team, "events"] as const,
  artifacts: (team: string, filters: object = {}) => ["team", team, "artifacts", filters] as const,
  artifact: (team: string, id: string) => ["team", team, "artifact", id] as const,
  artifactTypes: (team: string) => ["team", team, "artifact-types"] as const,
  stale: (team: string) => ["team", team, "stale"] as const,
  contracts: (team: string, filters: object = {}) => ["team", team, "contracts", filters] as const,
  contract: (team: string, id: string) => ["team", team, "contract", id] as const,
  sessions: (team: string) => ["team", team, "sessions"] as const,
  session: (team: string, name: string) => ["team", team, "session", name] as const,
  approvals: (team: string) => ["team", team, "approvals"] as const,
  roster: (team: string) => ["team", team, "roster"] as const,
  inbox: (team: string) => ["team", team, "inbox"] as const,
  messages: (team: string) => ["team", team, "messages"] as const,
  graph: (team: string) => ["team", team, "graph"] as const,
  pipelines: (team: string) => ["team", team, "pipelines"] as const,
  pipeline: (team: string, id: string) => ["team", team, "pipeline", id] as const,
  snapshots: (team: string) => ["team", team, "snapshots"] as const,
  settings: (team: string) => ["team", team, "settings"] as const,
  budgets: (team: string) => ["team", team, "budgets"] as const,
  overlaps: (team: string) => ["team", team, "overlaps"] as const,
};
