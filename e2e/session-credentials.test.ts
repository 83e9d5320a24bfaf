/**
 * Credentials that just work (docs/domain.md#the-binary-and-its-environment): a hub started in a shell where `claude` works gives its
 * sessions that shell's API key, or the CLI's own login, with nothing configured per session; the
 * markers of a parent Claude Code stay behind; and a session that cannot authenticate says exactly
 * what to set. The real CLI, sandboxed, against the fake API, which accepts one key only.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { startFakeApi, type FakeApi } from "./fake-anthropic/server.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "./helpers/claude.ts";
import { api, startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";
import { waitForSession } from "./helpers/session-hub.ts";

const KEY = "sk-ant-api03-the-good-one";
const HINT = "set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the hub's environment, or run `claude /login` as the user that runs the hub";

let fake: FakeApi;
let hub: HubProcess | undefined;
beforeAll(async () => (fake = await startFakeApi(directiveModel(), { keys: [KEY] })));
afterEach(async () => {
  await hub?.kill();
  hub = undefined;
});
afterAll(async () => fake?.close());

/**
 * A hub started from a shell inside Claude Code: `shell(home)` is what that shell adds (a key, a
 * config dir…) besides its HOME, the API's address and the nesting markers. The hub's own
 * configuration only keeps the CLI off the network; nothing names a credential.
 */
async function hubFromShell(shell: (home: string) => Record<string, string> = () => ({})): Promise<{ hub: HubProcess; home: string }> {
  const { HOME: home, TMPDIR, ANTHROPIC_BASE_URL, CLAUDE_CONFIG_DIR: _dir, ANTHROPIC_API_KEY: _key, ...quiet } = isolatedClaudeVars(fake.url);
  const work = tempDataDir("work");
  hub = await startHub(tempDataDir("credentials"), {
    CLAUDE_BIN,
    TEAMHUB_WORK_DIR: work,
    TEAMHUB_CLAUDE_ENV: JSON.stringify(quiet),
    HOME: home,
    TMPDIR,
    ANTHROPIC_BASE_URL,
    CLAUDECODE: "1",
    CLAUDE_CODE_ENTRYPOINT: "cli",
    ...shell(home),
  });
  return { hub, home };
}

/** A login as `claude /login` leaves it: an OAuth token in the config dir's .credentials.json. */
function login(configDir: string, accessToken: string) {
  fs.mkdirSync(configDir, { recursive: true });
  const oauth = {
    accessToken,
    refreshToken: "sk-ant-ort01-refresh",
    expiresAt: Date.now() + 86_400_000,
    scopes: ["user:inference", "user:profile"],
    subscriptionType: "max",
  };
  fs.writeFileSync(path.join(configDir, ".credentials.json"), JSON.stringify({ claudeAiOauth: oauth }), { mode: 0o600 });
}

async function firstTurn(h: HubProcess, name: string) {
  expect((await api(h, "POST", "/api/sessions", { name, prompt: "@reply hello from the model" })).status).toBe(201);
  // A turn that worked leaves its output; one that failed leaves its error.
  return waitForSession(h, name, (s) => s.interactions === 1 && (s.lastOutput !== null || s.lastError !== null), 60_000);
}

/** The environment the hub gave the session's process (bubblewrap, which hands it on to the CLI). */
function processEnv(pid: number): Record<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

describe("a key in the hub's environment", () => {
  it("works with no per-session configuration; nesting markers do not pass", async () => {
    const { hub } = await hubFromShell(() => ({ ANTHROPIC_API_KEY: KEY }));
    const s = await firstTurn(hub, "keyed");
    expect(s).toMatchObject({ status: "idle", lastOutput: "hello from the model", sandbox: "bubblewrap" });
    const env = processEnv(s.pid);
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
    expect(Object.keys(env).filter((k) => ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"].includes(k))).toEqual([]);
  }, 120_000);

  it("that the API refuses: the turn fails and says exactly what to set", async () => {
    const { hub } = await hubFromShell(() => ({ ANTHROPIC_API_KEY: "sk-ant-api03-revoked" }));
    const s = await firstTurn(hub, "refused");
    const error = `Invalid API key · Fix external API key — the session could not authenticate: ${HINT}`;
    expect(s).toMatchObject({ lastOutput: null, lastError: error, problem: `last turn failed: ${error}` });
    const out = (await api(hub, "GET", "/api/sessions/refused/output")).body;
    expect(out).toMatchObject({ interaction: expect.objectContaining({ isError: true, status: "error", error }) });
  }, 120_000);
});

describe("the CLI's own login", () => {
  it("in ~/.claude is found through HOME and readable in the sandbox; the session keeps everything else in its own config dir", async () => {
    const { hub, home } = await hubFromShell((home) => (login(path.join(home, ".claude"), KEY), {}));
    const s = await firstTurn(hub, "logged-in");
    expect(s).toMatchObject({ lastOutput: "hello from the model", sandbox: "bubblewrap" });
    const env = processEnv(s.pid);
    expect(env.CLAUDE_CONFIG_DIR).toMatch(new RegExp(`^${fs.realpathSync(hub.dataDir)}/sessions/\\d+/claude$`));
    expect(env.CLAUDE_SECURESTORAGE_CONFIG_DIR).toBe(fs.realpathSync(path.join(home, ".claude")));
    expect(fs.readdirSync(path.join(env.CLAUDE_CONFIG_DIR, "projects"))).toHaveLength(1);
    // Of the user's config the CLI used the login only: nothing was written beside it.
    expect(fs.readdirSync(home).sort()).toEqual([".claude", "tmp"]);
    expect(fs.readdirSync(path.join(home, ".claude"))).toEqual([".credentials.json"]);
  }, 120_000);

  it("in the shell's CLAUDE_CONFIG_DIR is where the session looks too", async () => {
    const { hub } = await hubFromShell((home) => {
      const configDir = path.join(home, "work-claude");
      login(configDir, KEY);
      // A different login in the default place must not be the one used.
      login(path.join(home, ".claude"), "sk-ant-oat01-someone-else");
      return { CLAUDE_CONFIG_DIR: configDir };
    });
    expect(await firstTurn(hub, "config-dir")).toMatchObject({ lastOutput: "hello from the model" });
  }, 120_000);

  it("missing, with no key either: the session says what to set", async () => {
    const { hub } = await hubFromShell();
    expect((await firstTurn(hub, "nobody")).lastError).toBe(`Not logged in · Please run /login — the session could not authenticate: ${HINT}`);
  }, 120_000);
});
