/**
 * Resource notifications from committed events: `resources/updated` for subscribed artifacts
 * (a new version) and contracts (a status or assignment change); `list_changed` when a new one
 * appears. Notifications never fail a write: they run after commit and errors are swallowed.
 */
import type { HubEvent } from "../events/types.ts";
import type { BuiltServer } from "./build-server.ts";
import { resourceUri } from "./uris.ts";

function changedUri(e: HubEvent): string | null {
  if (!e.teamId) return null;
  switch (e.type) {
    case "artifact.published":
    case "artifact.rolled_back":
      return resourceUri("artifact", e.teamId, e.payload.artifactId);
    case "contract.created":
    case "contract.status_changed":
    case "contract.updated":
    case "contract.reassigned":
    case "contract.dependencies_changed":
      return resourceUri("contract", e.teamId, e.payload.id);
    default:
      return null;
  }
}

const isNew = (e: HubEvent) => e.type === "contract.created" || (e.type === "artifact.published" && e.payload.version === 1);

export function notifyResourceChanges(server: BuiltServer, events: readonly HubEvent[]): void {
  if (!server.mcp.isConnected()) return;
  const updated = new Set<string>();
  for (const e of events) {
    const uri = changedUri(e);
    if (uri && server.subscriptions.has(uri)) updated.add(uri);
  }
  for (const uri of updated) void server.mcp.server.sendResourceUpdated({ uri }).catch(() => {});
  if (events.some(isNew)) server.mcp.sendResourceListChanged();
}
