"use client";

import { useEffect, useState } from "react";
import { TOKEN_KEY } from "@/lib/browser-api.ts";
import { useHealth } from "@/lib/queries/settings.ts";

/**
 * The bearer token this browser sends with every request and on /ws. Needed only when the hub
 * requires tokens (TEAMHUB_REQUIRE_TOKEN=1, or listening beyond loopback); on loopback the
 * dashboard acts as the operator without one. Saving reloads the page so /ws reconnects with it.
 */
export function BrowserToken() {
  const health = useHealth();
  const [stored, setStored] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  useEffect(() => setStored(window.localStorage.getItem(TOKEN_KEY)), []);
  const save = (value: string | null) => {
    if (value) window.localStorage.setItem(TOKEN_KEY, value);
    else window.localStorage.removeItem(TOKEN_KEY);
    window.location.reload();
  };
  return (
    <form
      className="stack tight"
      aria-label="token of this browser"
      onSubmit={(e) => {
        e.preventDefault();
        save(draft.trim());
      }}
    >
      <p className="muted" data-testid="token-requirement">
        {health.data
          ? health.data.requireToken
            ? "This hub requires a token on every request."
            : "This hub accepts requests from this machine without a token (they act as the operator)."
          : health.error?.message}{" "}
        {stored ? "This browser sends a stored token." : "This browser sends no token."}
      </p>
      <label className="field">
        <span>Bearer token</span>
        <input
          type="password"
          autoComplete="off"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={stored ? "•••••• (stored)" : "thop_… or thm_…"}
          aria-label="bearer token for this browser"
        />
        <span className="hint">Kept in this browser&apos;s local storage. A member token makes the dashboard act as that member.</span>
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={draft.trim() === ""}>
          Save and reload
        </button>
        {stored && (
          <button type="button" onClick={() => save(null)}>
            Forget the stored token
          </button>
        )}
      </div>
    </form>
  );
}
