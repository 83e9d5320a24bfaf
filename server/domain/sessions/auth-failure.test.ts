import { describe, expect, it } from "vitest";
import { AUTH_HINT, explainAuthFailure } from "./auth-failure.ts";

describe("an authentication failure", () => {
  it("says what to set, for each way CLI 2.1.197 reports one (texts taken from its stream-json output)", () => {
    for (const text of [
      "Invalid API key · Fix external API key",
      "Not logged in · Please run /login",
      "OAuth token revoked · Please run /login",
      "API Error: 401 Invalid API key · Please run /login",
    ]) {
      expect(explainAuthFailure(text)).toBe(`${text} — the session could not authenticate: ${AUTH_HINT}`);
    }
    expect(AUTH_HINT).toBe("set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the hub's environment, or run `claude /login` as the user that runs the hub");
  });

  it("is explained once, and other errors are left as they are", () => {
    const once = explainAuthFailure("Not logged in · Please run /login");
    expect(explainAuthFailure(once)).toBe(once);
    expect(explainAuthFailure("API Error: 500 fake error")).toBe("API Error: 500 fake error");
    expect(explainAuthFailure(null)).toBeNull();
  });
});
