/**
 * Team chat against a running hub, through the real CLI acting as members with their own tokens:
 * direct messages and the inbox, an ask answered from another CLI process, the rate limit and
 * identity refusals with their exit codes, and an ask over MCP answered from `teamhub mcp`.
 */
import { spawn } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, BIN, cli, ROOT, startHub, type CliResult, type HubProcess } from "./helpers/hub-process.ts";
import { call, httpClient, stdioClient } from "./helpers/mcp-client.ts";

let hub: HubProcess;
const tokens: Record<string, string> = {};
const clients: Client[] = [];

beforeAll(async () => {
  hub = await startHub();
  for (const name of ["api-dev", "qa-dev", "db-dev"]) {
    tokens[name] = cli(hub.dataDir, ["token", "create", name]).stdout.trim();
    expect(cli(hub.dataDir, ["team-member", name]).code).toBe(0);
  }
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await hub?.kill();
});

/** The CLI as a member. */
const as = (member: string, ...args: string[]) => cli(hub.dataDir, [...args, "--token", tokens[member]]);
const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r;
};

/** The CLI as a member, in its own process, without blocking this one (an ask waits). */
function asInBackground(member: string, ...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args, "--token", tokens[member]], {
    cwd: ROOT,
    env: { ...process.env, TEAMHUB_DATA_DIR: hub.dataDir, TEAMHUB_URL: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, json: () => JSON.parse(stdout) })));
}

function waitForAsk(member: string): Promise<{ id: number; from: string; text: string }> {
  return vi.waitFor(
    () => {
      const ask = ok(as(member, "team-inbox", "--unread", "--json"))
        .json()
        .messages.find((m: { kind: string }) => m.kind === "ask");
      if (!ask) throw new Error(`no ask reached ${member}`);
      return ask;
    },
    { timeout: 20_000, interval: 100 },
  );
}

describe("team chat through the CLI", () => {
  it("sends a DM as the token's member, and the inbox shows it unread once, then read", () => {
    expect(ok(as("api-dev", "team-send", "qa-dev", "schema is ready")).stdout).toBe("sent message #1 to qa-dev\n");
    const first = ok(as("qa-dev", "team-inbox")).stdout;
    expect(first).toMatch(/^\* #1 from api-dev \(dm\) \S+Z\n {4}schema is ready\n$/);
    expect(ok(as("qa-dev", "team-inbox", "--json")).json()).toMatchObject({
      member: "qa-dev",
      messages: [{ id: 1, from: "api-dev", unread: false }],
      unreadLeft: 0,
    });
    expect(ok(as("db-dev", "team-inbox", "--json")).json().messages).toEqual([]);

    expect(ok(as("db-dev", "team-broadcast", "deploying at noon")).stdout).toBe("broadcast to 2 member(s): api-dev, qa-dev\n");
  });

  it("answers an ask from another CLI process", async () => {
    const asking = asInBackground("api-dev", "team-ask", "qa-dev", "which port does the test server use?", "--timeout", "30", "--json");
    const question = await waitForAsk("qa-dev");
    expect(question).toMatchObject({ from: "api-dev", text: "which port does the test server use?" });
    expect(ok(as("qa-dev", "team-reply", String(question.id), "3001")).stdout).toMatch(new RegExp(`^replied to #${question.id}: message #\\d+ to api-dev\\n$`));
    const answered = await asking;
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.json()).toMatchObject({ answered: true, messageId: question.id, to: "qa-dev", reply: { from: "qa-dev", text: "3001" } });

    const unanswered = ok(as("api-dev", "team-ask", "db-dev", "anyone?", "--timeout", "1"));
    expect(unanswered.stdout).toMatch(/^no reply from db-dev within 1 s; question #\d+ stays in their inbox, and a late reply will reach yours\n$/);
  });

  it("refuses, with exit 2 and a clear message: bad input, strangers, replies to others' messages, a spoofed sender", async () => {
    const empty = as("api-dev", "team-send", "qa-dev", " ");
    expect([empty.code, empty.stderr]).toEqual([2, "teamhub: invalid_input: message: must not be empty\n"]);
    const stranger = as("api-dev", "team-send", "nobody", "hi");
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain("teamhub: not_found: to: 'nobody' is not on the roster of team 'default' (members: api-dev, db-dev, qa-dev)");
    const dm = ok(as("api-dev", "team-send", "qa-dev", "for qa only", "--json")).json();
    const notMine = as("db-dev", "team-reply", String(dm.messageId), "butting in");
    expect([notMine.code, notMine.stderr]).toEqual([
      2,
      `teamhub: forbidden: messageId: message ${dm.messageId} was sent to 'qa-dev', not to you ('db-dev'); you can reply only to messages in your own inbox\n`,
    ]);
    const badTimeout = as("api-dev", "team-ask", "qa-dev", "q", "--timeout", "0");
    expect([badTimeout.code, badTimeout.stderr]).toEqual([2, "teamhub: invalid_input: timeoutSeconds: must be at least 1\n"]);

    const spoof = await api(hub, "POST", "/api/chat/send", { to: "qa-dev", message: "hi", from: "db-dev" }, { authorization: `Bearer ${tokens["api-dev"]}` });
    expect(spoof.status).toBe(400);
    expect(spoof.body.error.details.issues[0]).toMatchObject({ rule: "unrecognized_keys", message: 'Unrecognized key: "from"' });
  });

  it("stops a sender at the team's rate limit with exit 2, naming the limit and when to retry", () => {
    ok(cli(hub.dataDir, ["team-settings", "--team", "limits", "--chat-rate-limit", "2"]));
    for (const name of ["api-dev", "qa-dev"]) ok(cli(hub.dataDir, ["team-member", name, "--team", "limits"]));
    ok(as("api-dev", "team-send", "qa-dev", "one", "--team", "limits"));
    ok(as("api-dev", "team-send", "qa-dev", "two", "--team", "limits"));
    const third = as("api-dev", "team-send", "qa-dev", "three", "--team", "limits");
    expect(third.code).toBe(2);
    expect(third.stderr).toMatch(
      /^teamhub: rate_limited: rate limit: 'api-dev' sent 2 messages in the last minute, and the limit is 2 per minute \(team setting chatRateLimitPerMinute\); retry after \S+Z \(in \d+ s\)\n$/,
    );
    const asJson = as("api-dev", "team-send", "qa-dev", "three", "--team", "limits", "--json");
    expect(asJson.json().error).toMatchObject({ code: "rate_limited", details: { rule: "rate_limit", limit: 2, retryAfterSeconds: expect.any(Number) } });
    // Nothing was delivered beyond the limit.
    expect(
      ok(as("qa-dev", "team-inbox", "--team", "limits", "--json"))
        .json()
        .messages.map((m: { text: string }) => m.text),
    ).toEqual(["two", "one"]);
  });
});

describe("team chat over MCP", () => {
  it("lets a team_ask over /mcp wait for a team_reply made through `teamhub mcp` (another process)", async () => {
    // A team of its own: the pair's exchanges above would trip the loop guard in 'default'.
    for (const name of ["api-dev", "qa-dev"]) ok(cli(hub.dataDir, ["team-member", name, "--team", "mcp"]));
    const asker = await httpClient(hub.url, tokens["api-dev"]);
    const answerer = await stdioClient(hub.dataDir, tokens["qa-dev"]);
    clients.push(asker, answerer);
    const asking = asker.callTool({ name: "team_ask", arguments: { team: "mcp", to: "qa-dev", question: "ready to test?", timeoutSeconds: 60 } }, undefined, {
      timeout: 90_000,
    });
    const ask: { id: number } = await vi.waitFor(
      async () => {
        const found = (await call(answerer, "team_check_inbox", { team: "mcp", unreadOnly: true }))
          .json()
          .messages.find((m: { kind: string }) => m.kind === "ask");
        if (!found) throw new Error("no ask reached qa-dev");
        return found;
      },
      { timeout: 20_000, interval: 100 },
    );
    const r = await call(answerer, "team_reply", { team: "mcp", messageId: ask.id, message: "yes, go" });
    expect(r.isError, r.text).toBeFalsy();
    const answered = (await asking) as { structuredContent?: Record<string, unknown> };
    expect(answered.structuredContent).toMatchObject({ answered: true, reply: { from: "qa-dev", text: "yes, go" } });

    const spoofed = await call(asker, "team_send_message", { to: "qa-dev", message: "hi", from: "db-dev" });
    expect(spoofed.text).toContain("invalid_input: from: is not an argument of team_send_message; you act as 'api-dev'");
  });
});
