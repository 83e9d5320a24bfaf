/** What MCP clients are told of fields many tools share, so every tool explains them the same way, and of operations agents do not get. */
export const TEAM = "Team (namespace). Omit for the default team 'default'.";
export const ARTIFACT_ID = "Artifact id: lowercase letters, digits, '.', '_' or '-' (e.g. 'api-contract-user-auth').";
export const CONTRACT_ID = "Contract id: lowercase letters, digits, '.', '_' or '-' (e.g. 'build-auth-api').";
export const REF = "An artifact version: 'id@vN' for version N, or just 'id' for its current version.";
export const LIMIT = "Page size, 1–500 (default 100).";
export const CURSOR = "Continue after this cursor (the nextCursor of the previous page).";
export const SESSION_NAME = "Session name: letters, digits, '.', '_' or '-' (e.g. 'api-dev').";
export const WAIT = "Wait for the reply (default true here); false returns as soon as the message is queued.";
export const WAIT_TIMEOUT = "How long to wait in ms (default 600000); the message is still processed after that.";

/** Why agents get no tool for an operation (docs/mcp.md#what-a-client-gets): the reasons most such operations share. */
export const ADMINISTRATION = "the operator's administration of the hub (dashboard and CLI), not an agent's work";
export const A_PERSONS_DECISION = "a person's decision: an agent never decides a permission request, its own or another's";
export const A_VIEW = "a view of the dashboard or the CLI; agents read the same facts through the listed tools";
export const HOOKS = "the teamhub commands Claude Code's hooks run call it on the session's behalf (docs/mcp.md#continuity-hooks)";
