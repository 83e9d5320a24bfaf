/**
 * The client library's examples (examples/*.ts), each run as a script (`node --import tsx`, importing "teamhub"
 * as a user's script does) against a real hub whose sessions run the real `claude` against the fake API;
 * docs/client.md#examples shows each file's code exactly.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastTurnPrompt, roundsSinceLastPrompt } from "./fake-anthropic/directives.ts";
import type { MessagesRequest } from "./fake-anthropic/request.ts";
import type { Reply } from "./fake-anthropic/server.ts";
import { ROOT } from "./helpers/hub-process.ts";
import { startSessionHub, type SessionHub } from "./helpers/session-hub.ts";

const EXAMPLES = ["batch-and-follow-ups.ts", "delegate-with-limits.ts", "react-to-a-session.ts"];

let sh: SessionHub;

/** The model: the tasks of the examples call tools (one per round trip), then answer; any other prompt is echoed. */
function model(req: MessagesRequest): Reply {
  const prompt = lastTurnPrompt(req);
  const auth = path.join(sh.work, "auth.ts");
  const script: Record<string, { tools: Array<{ name: string; input: unknown }>; reply: string }> = {
    "authentication bug": {
      tools: [
        { name: "Read", input: { file_path: auth } },
        { name: "Edit", input: { file_path: auth, old_string: "a == b", new_string: "a === b" } },
      ],
      reply: "Fixed: auth.ts compares with ===",
    },
    "notes.md": {
      tools: [
        { name: "Write", input: { file_path: path.join(sh.work, "notes.md"), content: "# Plan\n- ship the client\n" } },
        { name: "Bash", input: { command: "ls", description: "list the directory" } },
      ],
      reply: "Wrote notes.md and listed the directory.",
    },
  };
  const task = Object.entries(script).find(([phrase]) => prompt.includes(phrase))?.[1];
  if (!task) return { text: `pong: ${prompt}` };
  const round = roundsSinceLastPrompt(req);
  return round < task.tools.length ? { tools: [task.tools[round]] } : { text: task.reply, dripMs: 5 };
}

function run(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join("examples", file)], {
      cwd: ROOT,
      env: { ...process.env, TEAMHUB_URL: sh.hub.url, TEAMHUB_TOKEN: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  sh = await startSessionHub(model);
  fs.writeFileSync(path.join(sh.work, "auth.ts"), "export const same = (a: string, b: string) => a == b;\n");
});
afterAll(async () => sh?.close());

describe("the client library's examples", () => {
  it("are shown in docs/client.md exactly as the files hold them", () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs", "client.md"), "utf8");
    for (const file of EXAMPLES) {
      const code = fs.readFileSync(path.join(ROOT, "examples", file), "utf8");
      expect(doc, `docs/client.md shows examples/${file}`).toContain("```ts\n// examples/" + file + "\n" + code + "```");
    }
  });

  it("batch spawn and follow-ups: each follow-up returns its own turn's text and cost", async () => {
    const r = await run("batch-and-follow-ups.ts");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^login-page: pong: Add form validation \(\$0\.\d{4}\)$/m);
    expect(r.stdout).toMatch(/^signup-page: pong: Add a password strength meter \(\$0\.\d{4}\)$/m);
  }, 120_000);

  it("delegate with limits and continue: the task is done by the session's tools, then continued and finished", async () => {
    const r = await run("delegate-with-limits.ts");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^completed: Fixed: auth.ts compares with === \(\$0\.\d{4}, tools: Read, Edit\)$/m);
    expect(r.stdout).toMatch(/^completed: pong: Good, now add input validation$/m);
    expect(r.stdout).toMatch(/^finished after 4 turns, \$0\.\d{4}$/m);
    expect(fs.readFileSync(path.join(sh.work, "auth.ts"), "utf8")).toContain("a === b");
  }, 120_000);

  it("reacting to a session: its streamed text, tool calls and results, then the turn's end", async () => {
    const r = await run("react-to-a-session.ts");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`→ Write {"file_path":"${path.join(sh.work, "notes.md")}"`);
    expect(r.stdout).toMatch(/^← ok: File created successfully/m);
    expect(r.stdout).toContain(`→ Bash {"command":"ls"`);
    expect(r.stdout).toMatch(/^← ok: .*auth\.ts/m);
    expect(r.stdout).toMatch(/^Wrote notes.md and listed the directory.\ncompleted after 3 turns \(\$0\.\d{4}\)$/m);
    expect(fs.readFileSync(path.join(sh.work, "notes.md"), "utf8")).toContain("ship the client");
  }, 120_000);
});
