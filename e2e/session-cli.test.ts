/**
 * The session commands of the `teamhub` CLI against a hub running the real `claude`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { CLAUDE_DEFAULTS } from "./helpers/claude.ts";
import { api, cliAsync } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel())));
afterAll(async () => sh?.close());

// Sessions started from the CLI work in its current directory, the repository here: tests that write files pass --work-dir.
const run = async (...args: string[]) => {
  const r = await cliAsync(sh.hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}${r.stdout}`).toBe(0);
  return r;
};

describe("session commands", () => {
  it("spawn --wait, send, status, output, history, list, stop, resume, delete", async () => {
    expect((await run("spawn", "cli-one", "--prompt", "hi there", "--wait")).stdout).toMatch(
      /^pong: hi there\n\n— cli-one turn 1: completed, \$0\.\d{4}, 1 turns\n$/,
    );
    expect((await run("send", "cli-one", "again")).stdout).toContain("pong: again");
    expect((await run("send", "--name", "cli-one", "--message", "third", "--json")).json()).toMatchObject({
      completed: true,
      interaction: { n: 3, response: "pong: third" },
    });
    const status = (await run("status", "cli-one")).stdout;
    expect(status).toMatch(/^cli-one: idle \(.+\), \$0\.\d{4}, 3 turns/);
    // The runtime by default, and the model the CLI chose by itself, none being named.
    expect(status.split("\n")[0]).toContain(`(claude ${CLAUDE_DEFAULTS.model})`);
    expect((await run("output", "cli-one")).stdout).toBe("pong: third\n");
    const history = (await run("history", "cli-one")).stdout;
    expect(history).toMatch(/N\s+STATUS\s+COST\s+TURNS\s+DURATION\s+TOOLS\s+PROMPT/);
    expect(history).toContain("total: $");
    expect((await run("list")).stdout).toMatch(/cli-one\s+default\s+idle/);
    expect((await run("stop", "cli-one")).stdout).toMatch(/^cli-one: stopped/);
    expect((await run("resume", "cli-one")).stdout).toMatch(/^cli-one: starting/);
    await waitForSession(sh.hub, "cli-one", (s) => s.status === "idle");
    expect((await run("delete", "cli-one")).stdout).toBe("deleted cli-one\n");
    const gone = await cliAsync(sh.hub.dataDir, ["status", "cli-one"]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain("session 'cli-one' does not exist");
  }, 120_000);

  it("delegate and continue report the outcome; finish stops", async () => {
    const d = (await run("delegate", "--name", "cli-task", "--task", "@bash echo done\n@reply all done", "--max-cost", "1", "--json")).json();
    expect(d).toMatchObject({ status: "completed", response: "all done", toolsUsed: ["Bash"], safety: { limits: { maxCostUsd: 1 } } });
    expect((await run("continue", "cli-task", "what next?")).stdout).toMatch(/^needs_input: pong: what next\?/);
    expect((await run("finish", "cli-task")).stdout).toMatch(/^cli-task: stopped, \$0\.\d{4}, 3 turns in 2 interactions/);
  }, 120_000);

  it("batch --file starts several; cleanup --days removes old ended ones; bad input exits 2 naming the field", async () => {
    const file = path.join(sh.work, "batch.json");
    fs.writeFileSync(file, JSON.stringify([{ name: "b-one", prompt: "one" }, { name: "b-two" }]));
    expect((await run("batch", "--file", file)).stdout).toMatch(/started b-one: starting.*\nstarted b-two: starting/);
    await waitForSession(sh.hub, "b-one", (s) => s.interactions === 1);
    await run("stop", "b-one");
    await run("stop", "b-two");
    expect((await run("cleanup", "--days", "1")).stdout).toBe("nothing to delete\n");
    expect((await run("cleanup", "--days", "0", "--json")).json()).toEqual({ deleted: ["b-one", "b-two", "cli-task"] });

    const bad = await cliAsync(sh.hub.dataDir, ["spawn", "Bad Name!", "--prompt", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("name: must be letters, digits");
    const preset = await cliAsync(sh.hub.dataDir, ["spawn", "ok-name", "--preset", "yolo"]);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain("preset: must be one of read-only, review, edit, full, plan");
    expect((await api(sh.hub, "GET", "/api/sessions/ok-name")).status).toBe(404);
  }, 120_000);

  it("approvals and allow from the CLI", async () => {
    await run("spawn", "cli-ask", "--approval-timeout-ms", "60000", "--work-dir", sh.work);
    await waitForSession(sh.hub, "cli-ask", (s) => s.status === "idle");
    await run("send", "cli-ask", "@bash touch cli-approved.txt\n@reply ok", "--no-wait");
    const waiting = await waitForSession(sh.hub, "cli-ask", (s) => s.status === "waiting_permission");
    expect((await run("approvals")).stdout).toMatch(new RegExp(`${waiting.approvals[0].id}\\s+cli-ask\\s+Bash`));
    expect((await run("allow", "cli-ask", String(waiting.approvals[0].id))).stdout).toBe(`approval ${waiting.approvals[0].id} (Bash): allowed\n`);
    await waitForSession(sh.hub, "cli-ask", (s) => s.status === "idle" && s.interactions === 1);
    expect(fs.existsSync(path.join(sh.work, "cli-approved.txt"))).toBe(true);
  }, 120_000);
});
