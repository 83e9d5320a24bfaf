"use client";

import { useEffect, useState, type ReactNode } from "react";
import { CopyButton } from "../ui/CopyButton.tsx";

function Command({ text, label, children }: { text: string; label: string; children: ReactNode }) {
  return (
    <li className="command" data-testid="setup-command">
      <div className="row">
        <code className="cmd">{text}</code>
        <CopyButton text={text} label={label} />
      </div>
      <p className="hint muted">{children}</p>
    </li>
  );
}

/** How to connect Claude Code to this hub; every command names this hub's own URL. */
export function ClaudeSetup() {
  // The URL the browser reached the hub at: known only in the browser, so filled in after mounting.
  const [origin, setOrigin] = useState("http://127.0.0.1:3000");
  useEffect(() => setOrigin(window.location.origin), []);
  const url = ` --url ${origin}`;
  const http = JSON.stringify(
    { mcpServers: { teamhub: { type: "http", url: `${origin}/mcp`, headers: { Authorization: "Bearer <member token>" } } } },
    null,
    2,
  );
  const stdio = JSON.stringify({ mcpServers: { teamhub: { command: "npx", args: ["teamhub", "mcp"], env: { TEAMHUB_TOKEN: "<member token>" } } } }, null, 2);
  return (
    <div className="stack">
      <p>In your project directory, with this hub running:</p>
      <ul className="plain stack tight">
        <Command text={`npx teamhub setup --local --guide${url}`} label="setup for this project with guides">
          Registers this hub with Claude Code for this project only, with a member token of its own (acting as <code>claude-code</code>;{" "}
          <code>--as &lt;name&gt;</code> to choose), and writes the orchestrator and worker guides into <code>CLAUDE.md</code> between markers.
        </Command>
        <Command text={`npx teamhub setup --global${url}`} label="setup for all projects">
          The same for all your projects (Claude Code&apos;s user scope).
        </Command>
        <Command text={`npx teamhub setup --local --hooks${url}`} label="setup with continuity hooks">
          Also installs the session-continuity hooks: a briefing at SessionStart, checkpoints at Stop, PreCompact and SessionEnd.
        </Command>
        <Command text={`npx teamhub setup --local --uninstall${url}`} label="uninstall setup">
          Removes exactly what setup added: the server entry, the <code>CLAUDE.md</code> block, the hooks and the token.
        </Command>
      </ul>
      <h3>By hand</h3>
      <p>
        Put this into <code>.mcp.json</code> (or <code>~/.claude.json</code>). Replace <code>&lt;member token&gt;</code> with a token issued under “Member
        tokens” above: it decides who Claude Code acts as, since the hub always takes the publisher, reader and sender from the token.
      </p>
      <div className="row top">
        <pre className="json" data-testid="mcp-json">
          {http}
        </pre>
        <CopyButton text={http} label="MCP configuration over HTTP" />
      </div>
      <p>For clients that launch a command (stdio), the same tools without HTTP:</p>
      <div className="row top">
        <pre className="json">{stdio}</pre>
        <CopyButton text={stdio} label="MCP configuration over stdio" />
      </div>
      <h3>Supervised sessions</h3>
      <p>
        The hub runs <code>claude</code> from <code>PATH</code>, or the binary named by <code>CLAUDE_BIN</code>. Sessions authenticate as that{" "}
        <code>claude</code> does in the shell that starts the hub: <code>ANTHROPIC_API_KEY</code>, <code>ANTHROPIC_AUTH_TOKEN</code> or its login (
        <code>claude /login</code>). Nothing else of the hub&apos;s Claude setup passes; add variables with <code>TEAMHUB_CLAUDE_ENV</code> (a JSON object) or{" "}
        <code>TEAMHUB_CLAUDE_PASS_ENV</code> (names of the hub&apos;s own variables):
      </p>
      <ul className="plain">
        <Command
          text={`CLAUDE_BIN=$(which claude) TEAMHUB_CLAUDE_PASS_ENV=CLAUDE_CODE_USE_BEDROCK,AWS_PROFILE,AWS_REGION npx teamhub start`}
          label="start with session settings"
        >
          Set them where the hub starts; they apply to every session it launches.
        </Command>
      </ul>
    </div>
  );
}
