/** `import { TeamHub } from "teamhub"`: the client library (docs/client.md). */
export { TeamHub, type TeamHubOptions, type CallOptions, type SubscribeOptions } from "./team-hub.ts";
export { SessionHandle, type ItemsOptions } from "./session.ts";
export type { SessionItem, TurnResult, TurnStatus } from "./session-items.ts";
export type { LiveStream } from "./live.ts";
export type { HubEvent } from "../api/events.ts";
export { HubError, HubUnreachable } from "../api/call.ts";
export { api } from "../api/endpoints/index.ts";
