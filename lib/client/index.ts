/** `import { TeamHub } from "teamhub"`: the client library (docs/client.md). */
export { TeamHub, type TeamHubOptions, type CallOptions } from "./team-hub.ts";
export { HubError, HubUnreachable } from "../api/call.ts";
export { api } from "../api/endpoints/index.ts";
