/**
 * Which account a session's process runs on (docs/limits.md#accounts): a digest of the credentials its environment
 * carries — a login token, an API key or bearer token, or the user's interactive login — and the endpoint they are for.
 * Sessions with the same digest share a usage window, so a limit one of them hits holds them all. Never the secret.
 */
import { createHash } from "node:crypto";

export type Account = { account: string; label: string };

const KINDS: Array<[variable: string, label: string]> = [
  ["CLAUDE_CODE_OAUTH_TOKEN", "OAuth token"],
  ["ANTHROPIC_AUTH_TOKEN", "bearer token"],
  ["ANTHROPIC_API_KEY", "API key"],
  // The interactive login: the config dir that holds it stands for it.
  ["CLAUDE_SECURESTORAGE_CONFIG_DIR", "login"],
];

export function accountOf(env: Record<string, string>): Account {
  const found = KINDS.find(([v]) => env[v]);
  const [variable, kind] = found ?? ["", "default login"];
  const digest = createHash("sha256")
    .update(`${variable}\0${found ? env[variable] : ""}\0${env.ANTHROPIC_BASE_URL ?? ""}`)
    .digest("hex")
    .slice(0, 16);
  return { account: digest, label: `${kind} ${digest.slice(0, 6)}` };
}
