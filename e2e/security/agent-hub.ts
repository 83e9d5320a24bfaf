/**
 * A hub laid out as `npm start` lays it out (work dir = cwd, data dir = ./data inside it) with
 * secrets planted where an agent should never reach them, for the agent-side attacks: a real
 * `claude` is told (through the fake Messages API) to run one attack, and the test then checks
 * that no secret reached the model and that nothing on disk changed.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { allPrompts, toolResults } from "../fake-anthropic/request.ts";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { api } from "../helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "../helpers/session-hub.ts";

export type AgentHub = SessionHub & {
  /** Every secret value planted; none may ever appear in what the model is sent. */
  secrets: Record<string, string>;
  /** The hub's own HOME and a directory beside the work dir, both outside what a session may see. */
  hubHome: string;
  outside: string;
  hubPid: number;
  /** The other session's directory in data/sessions. */
  victimPk: string;
  /** The Claude session id of the victim's conversation, in the same work dir, which holds the `samedir` secret. */
  victimConversationId: string;
  /** The Claude session id of a conversation in another work dir that holds the `xfersecret` secret. */
  transcriptId: string;
  cleanup(): Promise<void>;
};

const secret = (label: string) => `${label}_${randomBytes(12).toString("hex")}`;

/** `env`: more of the hub's settings (a Codex runtime's, say). */
export async function startAgentHub(env: Record<string, string> = {}): Promise<AgentHub> {
  const hubHome = tempDir("hubhome");
  const outside = tempDir("outside");
  const secrets = Object.fromEntries(
    ["env", "key", "git", "home", "outside", "canary", "xfersecret", "samedir", "usersettings"].map((label) => [label, secret(label)]),
  );
  const sh = await startSessionHub(directiveModel(), { HOME: hubHome, TEAMHUB_ATTACK_CANARY: secrets.canary, ...env }, { dataInWorkDir: true });
  const w = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(sh.work, rel)), { recursive: true });
    fs.writeFileSync(path.join(sh.work, rel), content);
  };
  w(".env", `SECRET=${secrets.env}\n`);
  w("credentials/key.pem", `-----BEGIN KEY-----\n${secrets.key}\n`);
  w(".git/config", `[remote "origin"]\n\turl = https://bot:${secrets.git}@example.com/repo.git\n`);
  w(".git/HEAD", "ref: refs/heads/main\n");
  w("node_modules/pkg/index.js", "module.exports = 1;\n");
  w("src/app.ts", "export const app = 1;\n");
  fs.symlinkSync(".env", path.join(sh.work, "envlink"));
  fs.symlinkSync(".git", path.join(sh.work, "gitlink"));
  fs.symlinkSync(".git", path.join(sh.work, "gitdir"));
  fs.mkdirSync(path.join(hubHome, ".ssh"));
  fs.writeFileSync(path.join(hubHome, ".ssh", "id_rsa"), `${secrets.home}\n`);
  fs.writeFileSync(path.join(outside, "secret.txt"), `${secrets.outside}\n`);
  // The user's own Claude config, where the sessions' CLI would look by default: a login (sessions may use
  // it, and read it, as any `claude` of that user can), settings and state files (never seen nor changed).
  const userConfig = path.join(sh.claudeHome, ".claude");
  fs.mkdirSync(userConfig, { recursive: true });
  const oauth = { accessToken: "sk-ant-oat01-login", refreshToken: "sk-ant-ort01-refresh", expiresAt: Date.now() + 86_400_000, scopes: ["user:inference"] };
  fs.writeFileSync(path.join(userConfig, ".credentials.json"), JSON.stringify({ claudeAiOauth: oauth }), { mode: 0o600 });
  fs.writeFileSync(path.join(userConfig, "settings.json"), JSON.stringify({ env: { USER_SETTING: secrets.usersettings } }));
  fs.writeFileSync(path.join(userConfig, ".claude.json"), JSON.stringify({ numStartups: 1 }));
  fs.writeFileSync(path.join(sh.claudeHome, ".claude.json"), JSON.stringify({ numStartups: 1 }));

  // Another session in the same work dir, so that data/sessions/<pk>/mcp.json holds a token that is not the
  // attacker's, and its CLI config dir a conversation.
  await api(sh.hub, "POST", "/api/sessions", { name: "victim", prompt: `remember ${secrets.samedir}` });
  const victim = await waitForSession(sh.hub, "victim", (s) => s.status === "idle" && s.interactions === 1);
  const victimDir = path.join(sh.hub.dataDir, "sessions");
  const [victimPk] = fs.readdirSync(victimDir);
  const victimConfig = fs.readFileSync(path.join(victimDir, victimPk, "mcp.json"), "utf8");
  // A conversation in another work dir.
  const otherWork = tempDir("otherwork");
  await api(sh.hub, "POST", "/api/sessions", { name: "elsewhere", workDir: otherWork, prompt: `remember ${secrets.xfersecret}` });
  const elsewhere = await waitForSession(sh.hub, "elsewhere", (s) => s.status === "idle" && s.interactions === 1);
  const operatorToken = fs.readFileSync(path.join(sh.hub.dataDir, "operator-token"), "utf8").trim();
  // `teamhub start` runs the hub in the process startHub spawned (the pid hub.json records).
  const hubPid = sh.hub.child.pid!;
  const all = { ...secrets, operator: operatorToken, victim: /Bearer ([^"]+)/.exec(victimConfig)![1] };
  return Object.assign(sh, {
    secrets: all,
    hubHome,
    outside,
    hubPid,
    victimPk,
    victimConversationId: victim.claudeSessionId as string,
    transcriptId: elsewhere.claudeSessionId as string,
    async cleanup() {
      await sh.close();
      for (const dir of [sh.work, hubHome, outside, otherWork, sh.claudeHome]) fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** Every file and link under `root` with its bytes (or link target), for byte-identical comparisons. */
export function treeState(root: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const rel = path.relative(root, full);
      if (skip(rel)) continue;
      if (e.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(full)}`;
      else if (e.isDirectory()) walk(full);
      else out[rel] = fs.readFileSync(full).toString("base64");
    }
  };
  walk(root);
  return out;
}

/**
 * What must not change: the work tree (but the hub's live database and the sessions' own CLI files), the hub's
 * HOME, the place beside the work dir, and the user's Claude config (the sessions' CLI HOME).
 */
export function diskState(ah: AgentHub): Record<string, string> {
  const data = path.relative(ah.work, ah.hub.dataDir);
  const live = new Set(["teamhub.db", "teamhub.db-wal", "teamhub.db-shm"].map((f) => path.join(data, f)));
  const attackers = (rel: string) => rel.startsWith(path.join(data, "sessions") + path.sep) && rel.split(path.sep)[2] !== ah.victimPk;
  // The victim's CLI writes its own config dir when it pleases (it is out of every attacker's sight).
  const victimsOwn = (rel: string) => rel.startsWith(path.join(data, "sessions", ah.victimPk, "claude") + path.sep);
  return {
    ...treeState(ah.work, (rel) => live.has(rel) || attackers(rel) || victimsOwn(rel)),
    ...Object.fromEntries(Object.entries(treeState(ah.hubHome)).map(([k, v]) => [`home:${k}`, v])),
    ...Object.fromEntries(Object.entries(treeState(ah.outside)).map(([k, v]) => [`outside:${k}`, v])),
    ...Object.fromEntries(Object.entries(treeState(ah.claudeHome)).map(([k, v]) => [`claude:${k}`, v])),
  };
}

let attacks = 0;

/**
 * Runs one attack as a delegate session (its own process) and checks it: the tool ran and its
 * result went back to the model, no secret is in anything this session's model was sent, and the
 * disk is byte-identical. Returns the tool results the model saw, for attack-specific checks.
 */
export async function agentAttack(ah: AgentHub, preset: "read-only" | "full", directives: string[]): Promise<string[]> {
  const marker = `attack-${++attacks}-${randomBytes(4).toString("hex")}`;
  const before = diskState(ah);
  const r = (await api(ah.hub, "POST", "/api/delegate", { name: marker, preset, task: [marker, ...directives, "@reply done"].join("\n") })).body;
  expect(r, JSON.stringify(r)).toMatchObject({ status: "completed", response: "done" });
  const mine = ah.fake.requests.filter((q) => allPrompts(q)[0]?.startsWith(marker));
  const results = mine.flatMap((q) => toolResults(q).map((t) => t.text));
  expect(results).toHaveLength(directives.length);
  const sent = JSON.stringify(mine);
  for (const [name, value] of Object.entries(ah.secrets)) expect(sent.includes(value), `secret '${name}' reached the model`).toBe(false);
  expect(diskState(ah)).toEqual(before);
  const s = (await api(ah.hub, "GET", `/api/sessions/${marker}`)).body;
  expect(s.sandbox).toBe("bubblewrap");
  return results;
}
