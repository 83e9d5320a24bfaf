/**
 * Session continuity (docs/domain.md#continuity) against a running hub: `teamhub hook` as a real process with the
 * hook's JSON on stdin records a checkpoint at Stop, and at SessionStart prints a briefing that
 * names what changed for that member since (a contract, a newer version of an artifact it read,
 * unread messages, a decision, a pattern, files in its git work tree). With no hub, a hook
 * prints `{}` and exits 0. The journal, the registry and the briefing round-trip through the CLI
 * and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cli, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { runHook, workTree } from "./helpers/work-tree.ts";

let hub: HubProcess;
let devToken: string;
beforeAll(async () => {
  hub = await startHub();
  devToken = (await api(hub, "POST", "/api/tokens", { name: "api-dev" })).body.token;
});
afterAll(async () => hub?.kill());

const asDev = () => ({ authorization: `Bearer ${devToken}` });
const devEnv = () => ({ TEAMHUB_DATA_DIR: hub.dataDir, TEAMHUB_TOKEN: devToken });

function run(...args: string[]) {
  const r = cli(hub.dataDir, args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}${r.stdout}`).toBe(0);
  return r;
}

describe("teamhub hook", () => {
  it("briefs a member at SessionStart on everything that changed for it since its Stop checkpoint", async () => {
    const tree = workTree();
    tree.write("login.ts", "export const login = 1;\n");
    const firstHead = tree.commit("login");
    await api(hub, "POST", "/api/contracts", { id: "build-auth", title: "Build auth endpoints", assignee: "api-dev" });
    await api(hub, "POST", "/api/artifacts", { id: "api-spec", type: "custom", data: { endpoints: ["/login"] } });
    expect((await api(hub, "GET", "/api/artifacts/api-spec", undefined, asDev())).status).toBe(200);
    await api(hub, "POST", "/api/pipelines", {
      id: "tell-api-dev",
      rules: [
        {
          trigger: { type: "artifact_published", artifactId: "api-spec" },
          action: { type: "notify_session", target: "api-dev", message: "api-spec is now v${artifact.version}: add /logout" },
        },
      ],
    });

    const stop = runHook(
      "stop",
      { session_id: "first-session", cwd: tree.dir, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Halfway through build-auth" },
      devEnv(),
    );
    expect(stop).toMatchObject({ code: 0, stdout: "{}\n", stderr: "" });
    const latest = (await api(hub, "GET", "/api/continuity/checkpoints/latest", undefined, asDev())).body.checkpoint;
    expect(latest).toMatchObject({
      kind: "stop",
      principal: "api-dev",
      claudeSessionId: "first-session",
      state: { cwd: tree.dir, head: firstHead, summary: "Halfway through build-auth" },
    });

    expect((await api(hub, "POST", "/api/contracts/build-auth/fail", { reason: "the spec changed" })).status).toBe(200);
    await api(hub, "POST", "/api/artifacts", { id: "api-spec", type: "custom", data: { endpoints: ["/login", "/logout"] }, summary: "adds /logout" });
    await expect.poll(() => query(hub.dbFile, `SELECT 1 FROM Message WHERE recipient = 'api-dev' AND kind = 'notify'`).length, { timeout: 10_000 }).toBe(1);
    run("decision-record", "Sessions are JWTs", "--decision", "RS256, 15 minutes", "--artifact", "api-spec");
    run("pattern-register", "error-envelope", "--description", "Errors are {error: {code, message}}");
    tree.write("logout.ts", "export const logout = 1;\n");
    tree.commit("logout");
    tree.write("login.ts", "export const login = 2;\n");

    const start = runHook("session-start", { session_id: "second-session", cwd: tree.dir, hook_event_name: "SessionStart", source: "startup" }, devEnv());
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toBe("");
    const out = start.output();
    expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
    expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context).toContain("# Team Hub briefing for api-dev (team default)");
    expect(context).toContain("Where you left off: Halfway through build-auth");
    expect(context).toContain('- build-auth "Build auth endpoints": now failed; ready → failed (the spec changed)');
    expect(context).toContain("- api-spec (custom): you read v1, current is v2 by operator — adds /logout");
    // Two contract notices (created for api-dev, then failed by the operator), then the pipeline's note.
    expect(context).toMatch(
      /## Unread messages \(3\)\n- from operator \(contract, [^)]+\): operator created contract 'build-auth'[^\n]*\n- from operator \(contract, [^)]+\): Contract 'build-auth' \(Build auth endpoints\): ready → failed \(the spec changed\)[^\n]*\n- from pipeline:tell-api-dev \(notify, [^)]+\): api-spec is now v2: add \/logout/,
    );
    expect(context).toContain("(operator): RS256, 15 minutes");
    expect(context).toContain("- error-envelope: Errors are {error: {code, message}}");
    expect(context).toMatch(/## Files changed in the work tree \(since [0-9a-f]{12}, now [0-9a-f]{12}\) \(2\)\n- logout\.ts\n- login\.ts/);

    // Counted from the checkpoint the first SessionStart recorded: no contract, decision or pattern news;
    // what is still true (an unread message, a newer version not yet read, a dirty file) is repeated.
    const again: string = runHook("session-start", { session_id: "second-session", cwd: tree.dir, source: "clear" }, devEnv()).output().hookSpecificOutput
      .additionalContext;
    expect(again).toMatch(/^Changes since your last checkpoint \(session start at /m);
    expect(again.match(/^## .*/gm)).toEqual([
      "## Artifacts you read that have newer versions (1)",
      "## Unread messages (3)",
      "## Files changed in the work tree (1)",
    ]);
    expect(query(hub.dbFile, `SELECT kind, claudeSessionId FROM Checkpoint WHERE principal = 'api-dev' ORDER BY id`)).toEqual([
      { kind: "stop", claudeSessionId: "first-session" },
      { kind: "session_start", claudeSessionId: "second-session" },
      { kind: "session_start", claudeSessionId: "second-session" },
    ]);
  }, 120_000);

  it("never breaks Claude Code: no hub, a refused token, bad stdin or an unknown event all print {} and exit 0", async () => {
    const cases: Array<[string, unknown, Record<string, string>, string[], RegExp]> = [
      ["session-start", { session_id: "s", cwd: "/" }, devEnv(), ["--url", "http://127.0.0.1:9"], /Team Hub is not running at http:\/\/127\.0\.0\.1:9/],
      ["stop", { session_id: "s" }, devEnv(), ["--url", "http://127.0.0.1:9"], /not running/],
      ["stop", { session_id: "s" }, { ...devEnv(), TEAMHUB_TOKEN: "thm_revoked" }, [], /unauthorized/],
      ["stop", "not json", devEnv(), [], /JSON/],
      ["stop", [1, 2], devEnv(), [], /stdin: must be the hook's JSON object/],
      ["stop", { session_id: "bad id!" }, devEnv(), [], /hook\.session_id/],
      ["notification", {}, devEnv(), [], /event: must be one of session-start, stop, pre-compact, session-end/],
    ];
    // What starting the CLI costs on this machine now: a hook that never calls a hub.
    const before = Date.now();
    runHook("notification", {}, devEnv(), []);
    const startup = Date.now() - before;
    for (const [event, input, env, args, note] of cases) {
      const started = Date.now();
      const r = runHook(event, input, env, args);
      // Quick: a refused connection is not waited out (the hook's own limit per hub call is 5 s, which would add 5 s
      // to the CLI's start; a loaded machine makes the start itself take seconds).
      expect(Date.now() - started, `${event} took too long (the CLI alone started in ${startup} ms)`).toBeLessThan(startup + 4000);
      expect(r.code, `${event} ${JSON.stringify(input)}`).toBe(0);
      expect(r.stdout).toBe("{}\n");
      expect(r.stderr).toMatch(note);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  }, 60_000);
});

describe("the journal, the registry and the briefing from the CLI", () => {
  it("records and lists decisions and patterns, and briefs the caller", async () => {
    const d = run(
      "decision-record",
      "Pagination",
      "--decision",
      "Cursor-based, newest first",
      "--rationale",
      "stable under inserts",
      "--alternative",
      "offset pages, which skip rows under inserts",
      "--alternative",
      "page tokens",
      "--json",
    ).json();
    expect(d).toMatchObject({ title: "Pagination", alternatives: ["offset pages, which skip rows under inserts", "page tokens"], author: "operator" });
    expect(run("decision-list", "--limit", "1", "--json").json()).toMatchObject({ items: [{ id: d.id, title: "Pagination" }] });
    const about = (...args: string[]) =>
      run("decision-list", ...args, "--json")
        .json()
        .items.map((x: { title: string }) => x.title);
    expect(about("--artifact", "api-spec")).toEqual(["Sessions are JWTs"]);
    expect(about("--after", String(d.id - 1))).toEqual(["Pagination"]);
    expect(run("decision-list").stdout).toMatch(new RegExp(`${d.id}\\s+Pagination\\s+operator`));

    expect(
      run("pattern-register", "file-names", "--description", "kebab-case", "--example", "user-service.ts, not UserService.ts", "--json").json(),
    ).toMatchObject({
      outcome: "created",
      examples: ["user-service.ts, not UserService.ts"],
    });
    expect(run("pattern-register", "file-names", "--description", "kebab-case", "--example", "user-service.ts, not UserService.ts").stdout).toMatch(
      /^unchanged pattern file-names/,
    );
    expect(run("pattern-get", "file-names").stdout).toContain("example: user-service.ts, not UserService.ts");
    expect(
      run("pattern-list", "--json")
        .json()
        .items.map((p: { name: string }) => p.name),
    ).toContain("file-names");

    const brief = cli(hub.dataDir, ["briefing", "--json"], { TEAMHUB_TOKEN: devToken });
    expect(brief.code, brief.stderr).toBe(0);
    expect(brief.json()).toMatchObject({ principal: "api-dev", since: { kind: "session_start" }, decisions: { items: [{ title: "Pagination" }] } });
    expect(cli(hub.dataDir, ["briefing"], { TEAMHUB_TOKEN: devToken }).stdout).toContain("## New decisions (1)");
    // The operator sees what a member would be told; a member cannot look at someone else's.
    expect(run("briefing", "--as", "api-dev", "--json").json()).toMatchObject({ principal: "api-dev", since: { kind: "session_start" } });
    const nosy = cli(hub.dataDir, ["briefing", "--as", "operator"], { TEAMHUB_TOKEN: devToken });
    expect([nosy.code, nosy.stderr.trim()]).toEqual([
      2,
      "teamhub: forbidden: 'api-dev' (member) may not read the checkpoints or briefing of 'operator': only the member itself, a lead of team 'default' or the operator may",
    ]);
  }, 60_000);

  it("refuses bad input with exit 2 naming the field", async () => {
    const empty = cli(hub.dataDir, ["decision-record", " ", "--decision", "x"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("invalid_input: title: must not be empty");
    const ghost = cli(hub.dataDir, ["decision-record", "t", "--decision", "x", "--contract", "ghost"]);
    expect(ghost.stderr).toContain("related.contracts[0]: contract 'ghost' does not exist in team 'default'");
    const missing = cli(hub.dataDir, ["pattern-get", "nope"]);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, "teamhub: not_found: name: pattern 'nope' does not exist"]);
    expect(cli(hub.dataDir, ["decision-list", "--since", "last week"]).stderr).toContain("since: must be an ISO 8601 date or date-time");
  }, 60_000);
});

describe("the continuity tools over MCP", () => {
  it("journals as the token's member and briefs it; read tools are annotated read-only", async () => {
    const client = await httpClient(hub.url, devToken);
    try {
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      for (const name of ["decision_list", "pattern_get", "pattern_list", "session_briefing"])
        expect(byName[name].annotations, name).toMatchObject({ readOnlyHint: true });
      for (const name of ["decision_record", "pattern_register", "session_checkpoint"])
        expect(byName[name].annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: false });

      const recorded = await call(client, "decision_record", {
        title: "Retry policy",
        decision: "Three retries with backoff",
        alternatives: ["none"],
        related: { contracts: ["build-auth"] },
      });
      expect(recorded.structuredContent).toMatchObject({ title: "Retry policy", author: "api-dev", related: { artifacts: [], contracts: ["build-auth"] } });
      const impersonating = await call(client, "decision_record", { title: "t", decision: "d", author: "operator" });
      expect(impersonating).toMatchObject({ isError: true, text: expect.stringContaining("invalid_input: arguments: Unrecognized key") });
      expect((await call(client, "pattern_register", { name: "retries", description: "Use the shared backoff helper" })).structuredContent).toMatchObject({
        outcome: "created",
        author: "api-dev",
      });
      expect((await call(client, "pattern_get", { name: "retries" })).structuredContent).toMatchObject({ description: "Use the shared backoff helper" });

      const checkpoint = await call(client, "session_checkpoint", { kind: "pre_compact", state: { summary: "Retries done, docs next" } });
      expect(checkpoint.structuredContent).toMatchObject({ principal: "api-dev", kind: "pre_compact", state: { summary: "Retries done, docs next" } });
      expect((await call(client, "session_checkpoint", { kind: "stop", principal: "operator" })).text).toContain(
        "principal: is not an argument of session_checkpoint",
      );
      expect((await call(client, "session_briefing", { member: "operator" })).text).toMatch(/^forbidden: /);
      await call(client, "decision_record", { title: "Docs format", decision: "Markdown in docs/" });

      const brief = await call(client, "session_briefing", { git: { changedFiles: ["src/retry.ts"] } });
      expect(brief.structuredContent).toMatchObject({ principal: "api-dev", since: { kind: "pre_compact" } });
      expect(brief.json().markdown).toContain("Where you left off: Retries done, docs next");
      expect(brief.json().markdown).toContain("Docs format (api-dev): Markdown in docs/");
      expect(brief.json().markdown).not.toContain("Retry policy");
      expect(brief.json().markdown).toContain("- src/retry.ts");
    } finally {
      await client.close();
    }
  }, 60_000);
});
