/** Field descriptions shared by many tools, so every tool explains them the same way. */
export const TEAM = "Team (namespace). Omit for the default team 'default'.";
export const ARTIFACT_ID = "Artifact id: lowercase letters, digits, '.', '_' or '-' (e.g. 'api-contract-user-auth').";
export const CONTRACT_ID = "Contract id: lowercase letters, digits, '.', '_' or '-' (e.g. 'build-auth-api').";
export const REF = "An artifact version: 'id@vN' for version N, or just 'id' for its current version.";
export const LIMIT = "Page size, 1–500 (default 100).";
export const CURSOR = "Continue after this cursor (the nextCursor of the previous page).";
