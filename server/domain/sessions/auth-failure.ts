/**
 * A session whose `claude` cannot authenticate says what to set. The CLI's own advice ("Please run
 * /login", "Fix external API key") speaks to a person at a terminal; a supervised session gets its
 * credentials from the hub's environment, so the fix is there (or in the login of the user the hub
 * runs as). Kept apart so that every place describing a turn's or an exit's error can use it.
 */

export const AUTH_HINT = "set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the hub's environment, or run `claude /login` as the user that runs the hub";

/**
 * How CLI 2.1.x reports that the API refused its credentials (401) or that it has none: the error
 * code it puts on the synthetic assistant message, and the texts of its result.
 */
const AUTH_FAILURE = /authentication_failed|authentication_error|Invalid API key|Not logged in|OAuth token (?:has expired|revoked)|Please run \/login/i;

/** Whether an error text is the CLI failing to authenticate. */
export const isAuthFailure = (text: string | null | undefined): boolean => !!text && AUTH_FAILURE.test(text);

/** The error as the session reports it: an authentication failure gains what to set (once); anything else is unchanged. */
export function explainAuthFailure(text: string | null): string | null {
  if (!text || !isAuthFailure(text) || text.includes(AUTH_HINT)) return text;
  return `${text} — the session could not authenticate: ${AUTH_HINT}`;
}
