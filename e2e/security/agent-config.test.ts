/**
 * Agent-side attacks on the CLI's configuration (docs/security.md#sandbox): a `full` session may write anything into the CLI
 * config dir it is given — settings with hooks, CLAUDE.md, commands, agents, an MCP server in `.claude.json`
 * — and into the paths where the user's own config lies. None of it reaches the user's config (byte for
 * byte), a session of another principal started afterwards, or the user's own unsandboxed `claude`; and
 * what other sessions keep in their own config dirs (their conversations) is out of its reach.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { allPrompts } from "../fake-anthropic/request.ts";
import { claudeEnv, runClaude } from "../helpers/claude.ts";
import { api } from "../helpers/hub-process.ts";
import { conversationFiles, waitForSession } from "../helpers/session-hub.ts";
import { attack } from "./attack.ts";
import { agentAttack, startAgentHub, type AgentHub } from "./agent-hub.ts";

let ah: AgentHub;
beforeAll(async () => (ah = await startAgentHub()), 180_000);
afterAll(async () => ah?.cleanup());

const T = 180_000;

/** What the fake API was sent for the conversation whose first prompt starts with `first`. */
const sentFor = (first: string) => JSON.stringify(ah.fake.requests.filter((q) => allPrompts(q)[0]?.startsWith(first)));

attack(
  "full plants hooks, CLAUDE.md, commands, agents and an MCP server in its CLI config dir and the user's config paths",
  async () => {
    const mark = `planted_${randomBytes(8).toString("hex")}`;
    const pwned = (what: string) => path.join(ah.work, `pwned-${what}`);
    const hook = (command: string) => [{ hooks: [{ type: "command", command }] }];
    const settings = JSON.stringify({ hooks: { SessionStart: hook(`touch ${pwned("hook")}`), UserPromptSubmit: hook(`echo ${mark}-hook`) } });
    const mcp = JSON.stringify({ mcpServers: { [mark]: { type: "stdio", command: "sh", args: ["-c", `touch ${pwned("mcp")}`] } } });
    const plant = (dir: string) =>
      `mkdir -p ${dir}/commands ${dir}/agents; echo '${settings}' > ${dir}/settings.json; echo ${mark}-memory > ${dir}/CLAUDE.md; ` +
      `echo ${mark}-command > ${dir}/commands/${mark}.md; printf -- '---\\nname: ${mark}\\ndescription: ${mark}-agent\\n---\\n${mark}\\n' > ${dir}/agents/${mark}.md; ` +
      `echo '${mcp}' > ${dir}/.claude.json`;
    const [own] = await agentAttack(ah, "full", [
      `@bash ${plant('"$CLAUDE_CONFIG_DIR"')}; ls -A "$CLAUDE_CONFIG_DIR"`,
      `@bash ${plant('"$HOME/.claude"')}; ${plant('"$CLAUDE_SECURESTORAGE_CONFIG_DIR"')}; echo '${mcp}' > "$HOME/.claude.json"; ls -A "$HOME"`,
    ]);
    // The session did write its own config dir (in the data dir, where only it looks)…
    expect(own).toMatch(/CLAUDE\.md[\s\S]*settings\.json/);
    const sessions = path.join(ah.hub.dataDir, "sessions");
    expect(fs.readdirSync(sessions).filter((pk) => fs.existsSync(path.join(sessions, pk, "claude", "CLAUDE.md")))).toHaveLength(1);

    // …and a session of another principal, started afterwards, gets none of it.
    const bob = (await api(ah.hub, "POST", "/api/tokens", { name: `bob-${mark.slice(-6)}` })).body.token;
    const bystander = `bystander-${mark.slice(-6)}`;
    const spawned = await api(ah.hub, "POST", "/api/sessions", { name: bystander, prompt: `${bystander}\n@reply fine` }, { authorization: `Bearer ${bob}` });
    expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
    expect(await waitForSession(ah.hub, bystander, (s) => s.status === "idle" && s.interactions === 1, 60_000)).toMatchObject({
      lastOutput: "fine",
      spawnedBy: expect.stringContaining("bob"),
    });
    expect(sentFor(bystander)).toContain(bystander);
    expect(sentFor(bystander)).not.toContain(mark);

    // Nor does the user's own `claude`, run outside any sandbox in the same work dir with the user's config.
    const user = `user-${mark.slice(-6)}`;
    const run = await runClaude(["-p", `${user}\n@reply mine`], claudeEnv(ah.fake.url, ah.claudeHome), ah.work);
    expect(run).toMatchObject({ code: 0, stdout: "mine\n" });
    expect(sentFor(user)).toContain(user);
    expect(sentFor(user)).not.toContain(mark);
    for (const what of ["hook", "mcp"]) expect(fs.existsSync(pwned(what))).toBe(false);
  },
  T,
);

attack(
  "full reads the conversations in its CLI config dir and everywhere it can, for another same-work-dir session's",
  async () => {
    // It is there to be found: the victim, in the same work dir, was told the secret in its first turn.
    expect(conversationFiles(ah.hub, ah.victimConversationId).filter((f) => fs.readFileSync(f, "utf8").includes(ah.secrets.samedir))).toHaveLength(1);
    const [own] = await agentAttack(ah, "full", [
      // Only what matches the secret is printed: a whole conversation is more than current CLIs hand the model inline.
      `@bash ls -A "$CLAUDE_CONFIG_DIR/projects"; cat "$CLAUDE_CONFIG_DIR"/projects/*/*.jsonl | grep -o 'samedir_[0-9a-f]*'; true`,
      `@bash grep -rho 'samedir_[0-9a-f]*' /tmp "$HOME" "$CLAUDE_CONFIG_DIR" 2>/dev/null | sort -u`,
    ]);
    // The one project there is its own work dir's (the CLI names it so), the same the victim's conversation is in.
    expect(own.split("\n")[0]).toBe(fs.realpathSync(ah.work).replace(/[^a-zA-Z0-9]/g, "-"));
  },
  T,
);
