/**
 * The agent-side attacks again, by Codex members (docs/runtimes.md#security): the real codex-acp, driven through the
 * fake Responses API, tries to read what the hub keeps from it, to write what no session may, and to go beyond its
 * authority through the hub's MCP tools. The sandbox and the policy hold as for Claude: no secret reaches the model
 * and nothing changes.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { directiveModel } from "../fake-openai/directives.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../fake-openai/server.ts";
import { codexHubEnv } from "../helpers/codex.ts";
import { api } from "../helpers/hub-process.ts";
import { waitForSession } from "../helpers/session-hub.ts";
import { attack } from "./attack.ts";
import { diskState, startAgentHub, type AgentHub } from "./agent-hub.ts";

let openai: FakeOpenAi;
let ah: AgentHub;
beforeAll(async () => {
  openai = await startFakeOpenAi(directiveModel);
  ah = await startAgentHub(codexHubEnv(openai.url));
}, 180_000);
afterAll(async () => {
  await ah?.cleanup();
  await openai?.close();
});

const T = 60_000;

/**
 * One attack by a Codex session of its own: its turn ends, no secret is in anything its model was sent, the disk is
 * byte-identical. Returns what its tool calls gave back to the model.
 */
async function codexAttack(preset: "read-only" | "full", directives: string[]): Promise<string[]> {
  const marker = `cx-attack-${randomBytes(4).toString("hex")}`;
  const before = diskState(ah);
  await api(ah.hub, "POST", "/api/sessions", { name: marker, runtime: "codex", preset, prompt: [marker, ...directives, "@reply done"].join("\n") });
  const s = await waitForSession(ah.hub, marker, (x) => x.status === "idle" && x.interactions === 1, T);
  expect(s.sandbox).toBe("bubblewrap");
  const mine = openai.requests.filter((q) => JSON.stringify(q.input).includes(marker));
  expect(mine.length).toBeGreaterThan(0);
  const sent = JSON.stringify(mine);
  for (const [name, value] of Object.entries(ah.secrets)) expect(sent.includes(value), `secret '${name}' reached the model`).toBe(false);
  expect(diskState(ah)).toEqual(before);
  // Each request carries the outputs before it: one of each.
  const outputs = [...new Set(mine.flatMap((q) => q.input.flatMap((i: any) => (i.type === "function_call_output" ? [JSON.stringify(i.output)] : []))))];
  const [turn] = (await api(ah.hub, "GET", `/api/sessions/${marker}/history`)).body.interactions;
  // The attack was carried out: each call ran and its output went back to the model, or the hub refused it.
  expect(outputs.length + turn.permissionDenials.length).toBe(directives.length);
  await api(ah.hub, "DELETE", `/api/sessions/${marker}`);
  return outputs;
}

const read = (...directives: string[]) => codexAttack("read-only", directives);
const write = (...directives: string[]) => codexAttack("full", directives);

attack("codex read-only cat of the operator token in the data dir", async () => void (await read("@shell cat data/operator-token")), T);
attack("codex read-only cat of other sessions' mcp.json tokens", async () => void (await read("@shell cat data/sessions/*/mcp.json")), T);
attack("codex read-only grep for Bearer tokens through the data dir", async () => void (await read("@shell grep -r Bearer data")), T);
attack("codex read-only cat /proc/<hub pid>/environ", async () => void (await read(`@shell cat /proc/${ah.hubPid}/environ`)), T);
attack("codex read-only cat .env", async () => void (await read("@shell cat .env")), T);
attack("codex read-only cat of a symlink to .env", async () => void (await read("@shell cat envlink")), T);
attack("codex read-only cat credentials/key.pem", async () => void (await read("@shell cat credentials/key.pem")), T);
attack("codex read-only .. escape to a file beside the work dir", async () => void (await read(`@shell cat ../${path.basename(ah.outside)}/secret.txt`)), T);
attack(
  "codex read-only grep -r SECRET . (the sandbox stops this one)",
  async () => {
    const outputs = await read("@shell grep -r SECRET .");
    expect(outputs.join("\n")).not.toContain("SECRET=");
  },
  T,
);
attack(
  "codex read-only env: the hub's environment is not its own",
  async () => {
    const [out] = await read("@shell env");
    expect(out).toContain("PATH=");
    expect(out).not.toContain("TEAMHUB_ATTACK_CANARY");
  },
  T,
);
attack("codex full-preset write to .env", async () => void (await write("@shell sh -c 'echo pwned > .env'")), T);
attack("codex full-preset append to .git/config", async () => void (await write("@shell sh -c 'echo pwned >> .git/config'")), T);
attack(
  "codex full-preset rm -rf of the hub's data dir (the policy refuses it: a protected path)",
  async () => {
    expect(await write("@shell rm -rf data")).toEqual([]);
  },
  T,
);
attack(
  "codex read-only member spawns a full-preset session through the hub's MCP tools",
  async () => {
    await read('@mcp spawn_session {"name":"cx-escalated","preset":"full","prompt":"hello"}');
    expect((await api(ah.hub, "GET", "/api/sessions/cx-escalated")).status).toBe(404);
  },
  T,
);
