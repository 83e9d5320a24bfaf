/**
 * Bad input, through the HTTP API and the CLI of a running hub: every case gets a clear error
 * that names the field and the rule, and the database is byte-for-byte unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cli, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { dbSnapshot } from "./helpers/db-snapshot.ts";
import { CLAUDE_BIN } from "./helpers/claude.ts";

let hub: HubProcess;

beforeAll(async () => {
  // A real CLI to resolve, so session refusals come from validation rather than a missing binary.
  hub = await startHub(undefined, { CLAUDE_BIN });
  const setup: Array<[string, string, unknown]> = [
    ["POST", "/api/contracts", { id: "x", title: "X", assignee: "dev" }],
    ["POST", "/api/contracts", { id: "y", title: "Y", assignee: "dev", dependencies: [{ type: "contract", contractId: "x" }] }],
    ["POST", "/api/contracts", { id: "z", title: "Z", assignee: "dev", dependencies: [{ type: "contract", contractId: "y" }] }],
    ["POST", "/api/contracts", { id: "once", title: "No retries", assignee: "dev", maxRetries: 0 }],
    ["POST", "/api/contracts/once/complete", {}],
    ["POST", "/api/artifacts", { id: "schema", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } }],
  ];
  for (const [method, route, body] of setup) expect((await api(hub, method, route, body)).status).toBeLessThan(300);
});
afterAll(async () => hub?.kill());

type Expect = { status: number; code: string; field?: string; rule?: string; says?: string };
type Case = [name: string, request: [method: string, route: string, body?: unknown, headers?: Record<string, string>], expect: Expect];

const publish = (body: Record<string, unknown>) => ["POST", "/api/artifacts", { id: "a1", type: "custom", data: {}, ...body }] as Case[1];
const typed = (type: string, data: unknown) => publish({ type, data });
const create = (body: Record<string, unknown>) => ["POST", "/api/contracts", { id: "c1", title: "T", assignee: "dev", ...body }] as Case[1];
const bad = (status: number, code: string, field?: string, rule?: string, says?: string): Expect => ({ status, code, field, rule, says });
const invalid = (field: string, rule: string, says?: string) => bad(400, "invalid_input", field, rule, says);

const apiCases: Case[] = [
  ["id with ../", publish({ id: "../etc" }), invalid("id", "invalid_format", "must be lowercase letters")],
  ["empty id", publish({ id: "" }), invalid("id", "invalid_format")],
  ["200-character id", publish({ id: "a".repeat(200) }), invalid("id", "invalid_format", "at most 128")],
  ["unicode id", publish({ id: "ärtifact" }), invalid("id", "invalid_format")],
  ["uppercase artifact id", publish({ id: "Schema" }), invalid("id", "invalid_format")],
  ["id of the wrong JSON type", publish({ id: 42 }), invalid("id", "invalid_type")],
  ["missing type", publish({ type: undefined }), invalid("type", "invalid_type")],
  ["missing data", publish({ data: undefined }), invalid("data", "custom", "is required")],
  ["tags not a list", publish({ tags: "a,b" }), invalid("tags", "invalid_type")],
  ["summary of the wrong type", publish({ summary: 7 }), invalid("summary", "invalid_type")],
  ["derivedFrom a missing artifact", publish({ derivedFrom: ["nope@v1"] }), invalid("derivedFrom[0]", "exists", "does not exist")],
  ["derivedFrom a missing version", publish({ derivedFrom: ["schema@v9"] }), invalid("derivedFrom[0]", "exists", "schema@v9")],
  ["derivedFrom version 0", publish({ derivedFrom: ["schema@v0"] }), invalid("derivedFrom[0]", "invalid_format")],
  ["negative expectedVersion", publish({ expectedVersion: -1 }), invalid("expectedVersion", "too_small")],
  ["published under a missing contract", publish({ contractId: "ghost" }), invalid("contractId", "exists")],
  ["unknown artifact type", typed("spreadsheet", {}), invalid("type", "known_type", "unknown artifact type")],
  ["type change of an existing artifact", publish({ id: "schema", type: "custom" }), invalid("type", "immutable_type", "schema-change")],
  ["api-contract without endpoints", typed("api-contract", {}), invalid("data.endpoints", "invalid_type")],
  [
    "api-contract with a bad method",
    typed("api-contract", { endpoints: [{ method: "FETCH", path: "/x" }] }),
    invalid("data.endpoints[0].method", "custom", "HTTP method"),
  ],
  [
    "api-contract path without /",
    typed("api-contract", { endpoints: [{ method: "GET", path: "x" }] }),
    invalid("data.endpoints[0].path", "invalid_format", "start with '/'"),
  ],
  ["schema-change model without a name", typed("schema-change", { models: [{ fields: ["a"] }] }), invalid("data.models[0].name", "invalid_type")],
  ["component-spec without componentName", typed("component-spec", { props: {} }), invalid("data.componentName", "invalid_type")],
  ["test-results with passed > total", typed("test-results", { total: 12, passed: 13, failed: 0 }), invalid("data.passed", "custom", "≤ total")],
  ["test-results with a negative count", typed("test-results", { total: 1, passed: -1, failed: 0 }), invalid("data.passed", "too_small")],
  ["test-results with a fractional count", typed("test-results", { total: 1.5, passed: 1, failed: 0 }), invalid("data.total", "invalid_type", "whole number")],
  [
    "file-manifest with an unknown action",
    typed("file-manifest", { files: [{ path: "a.ts", action: "touch" }] }),
    invalid("data.files[0].action", "invalid_value"),
  ],
  ["config-change without newValue", typed("config-change", { changes: [{ key: "port" }] }), invalid("data.changes[0].newValue", "custom", "is required")],
  ["data over 1 MiB", publish({ data: { blob: "x".repeat(1024 * 1024) } }), bad(413, "too_large", "data", "max_size", "1 MiB")],
  ["malformed JSON body", ["POST", "/api/artifacts", '{"id": "a1",'], invalid("body", "json", "not valid JSON")],
  ["JSON body that is a list", ["POST", "/api/artifacts", "[1,2]"], invalid("body", "object")],
  ["body sent as text/plain", ["POST", "/api/artifacts", '{"id":"a1"}', { "content-type": "text/plain" }], invalid("body", "content_type")],
  ["invalid team name", ["GET", "/api/artifacts?team=../etc"], invalid("team", "invalid_format")],
  ["page size over the limit", ["GET", "/api/artifacts?limit=10000"], invalid("limit", "too_big")],
  [
    "unknown contract dependency",
    create({ dependencies: [{ type: "contract", contractId: "ghost" }] }),
    invalid("dependencies[0].contractId", "exists", "'ghost' does not exist"),
  ],
  [
    "dependency of an unknown kind",
    create({ dependencies: [{ type: "session", id: "s" }] }),
    invalid("dependencies[0].type", "invalid_union", "must be {type: 'contract'"),
  ],
  ["self-dependency", create({ dependencies: [{ type: "contract", contractId: "c1" }] }), invalid("dependencies[0].contractId", "no_cycle")],
  [
    "direct cycle on dependency change",
    ["POST", "/api/contracts/x/dependencies", { dependency: { type: "contract", contractId: "y" } }],
    invalid("dependency.contractId", "no_cycle", "x → y → x"),
  ],
  [
    "three-long cycle on dependency change",
    ["POST", "/api/contracts/x/dependencies", { dependency: { type: "contract", contractId: "z" } }],
    invalid("dependency.contractId", "no_cycle", "x → z → y → x"),
  ],
  [
    "duplicate dependency",
    create({
      dependencies: [
        { type: "contract", contractId: "x" },
        { type: "contract", contractId: "x" },
      ],
    }),
    invalid("dependencies[1]", "unique"),
  ],
  ["empty title", create({ title: "" }), invalid("title", "too_small")],
  ["unknown priority", create({ priority: "urgent" }), invalid("priority", "invalid_value")],
  ["timeoutMs of 0", create({ timeoutMs: 0 }), invalid("timeoutMs", "too_small")],
  ["timeoutMs as text", create({ timeoutMs: "500" }), invalid("timeoutMs", "invalid_type")],
  ["unknown criterion kind", create({ acceptanceCriteria: [{ type: "vibes_ok" }] }), invalid("acceptanceCriteria[0].type", "invalid_union", "must be one of")],
  [
    "all_outputs_published without outputs",
    create({ acceptanceCriteria: [{ type: "all_outputs_published" }] }),
    invalid("acceptanceCriteria[0]", "requires_outputs"),
  ],
  [
    "minPassRate above 1",
    create({ acceptanceCriteria: [{ type: "tests_passing", artifactId: "t", minPassRate: 1.5 }] }),
    invalid("acceptanceCriteria[0].minPassRate", "too_big"),
  ],
  ["duplicate contract id", create({ id: "x" }), bad(409, "conflict", "id", undefined, "already exists")],
  [
    "start a pending contract",
    ["POST", "/api/contracts/y/start", {}],
    bad(409, "illegal_transition", undefined, undefined, "'y' is pending; start needs it to be ready"),
  ],
  ["complete a completed contract", ["POST", "/api/contracts/once/complete", {}], bad(409, "illegal_transition", undefined, undefined, "is completed")],
  [
    "reopen beyond maxRetries",
    ["POST", "/api/contracts/once/reopen", { reason: "again" }],
    bad(412, "precondition_failed", undefined, undefined, "maxRetries is 0"),
  ],
  ["force without a reason", ["POST", "/api/contracts/x/complete", { force: true }], invalid("reason", "required_with_force")],
  ["reassign to the same member", ["POST", "/api/contracts/x/reassign", { assignee: "dev" }], invalid("assignee", "different")],
  ["get a missing contract", ["GET", "/api/contracts/ghost"], bad(404, "not_found", "id", "exists", "id: contract 'ghost' does not exist")],
  ["session name with a space", ["POST", "/api/sessions", { name: "my session" }], invalid("name", "invalid_format", "must be letters, digits")],
  ["unknown preset", ["POST", "/api/sessions", { name: "s1", preset: "yolo" }], invalid("preset", "invalid_value", "read-only, review, edit, full, plan")],
  ["relative workDir", ["POST", "/api/sessions", { name: "s1", workDir: "src" }], invalid("workDir", "custom", "absolute path")],
  ["workDir that does not exist", ["POST", "/api/sessions", { name: "s1", workDir: "/no/such/dir" }], invalid("workDir", "exists", "does not exist")],
  ["negative maxBudgetUsd", ["POST", "/api/sessions", { name: "s1", maxBudgetUsd: -1 }], invalid("maxBudgetUsd", "too_small")],
  ["maxTurns of the wrong type", ["POST", "/api/sessions", { name: "s1", maxTurns: "many" }], invalid("maxTurns", "invalid_type")],
  ["allowedTools rule with a newline", ["POST", "/api/sessions", { name: "s1", allowedTools: ["Bash(rm\n)"] }], invalid("allowedTools[0]", "invalid_format")],
  ["unknown spawn field", ["POST", "/api/sessions", { name: "s1", dangerouslySkipPermissions: true }], invalid("", "unrecognized_keys")],
  ["reserved session name", ["POST", "/api/sessions", { name: "operator" }], bad(409, "conflict", "name", undefined, "reserved")],
  [
    "send to a missing session",
    ["POST", "/api/sessions/ghost/send", { message: "hi" }],
    bad(404, "not_found", "name", "exists", "session 'ghost' does not exist"),
  ],
  ["empty message", ["POST", "/api/sessions/ghost/send", { message: "" }], invalid("message", "too_small")],
  ["approval id that is not a number", ["POST", "/api/sessions/ghost/approvals/abc", { decision: "allow" }], invalid("approvalId", "invalid_type")],
  ["approval decision not allow or deny", ["POST", "/api/sessions/ghost/approvals/1", { decision: "maybe" }], invalid("decision", "invalid_value")],
  ["unread count of a malformed team", ["GET", "/api/chat/unread?team=Bad%20Team"], invalid("team", "invalid_format")],
  [
    "past events of an unknown trigger",
    ["POST", "/api/pipelines/dry-run/events", { trigger: { type: "artifact_deleted" } }],
    invalid("trigger.type", "invalid_value"),
  ],
  [
    "past events with a limit over 100",
    ["POST", "/api/pipelines/dry-run/events", { trigger: { type: "artifact_published" }, limit: 101 }],
    invalid("limit", "too_big"),
  ],
  ["bulk decision with no ids", ["POST", "/api/approvals/decide", { ids: [], decision: "allow" }], invalid("ids", "too_small", "at least one")],
  ["bulk decision naming one twice", ["POST", "/api/approvals/decide", { ids: [1, 1], decision: "allow" }], invalid("ids", "custom", "twice")],
  ["bulk decision with an id that is not a number", ["POST", "/api/approvals/decide", { ids: [1, "2"], decision: "deny" }], invalid("ids[1]", "invalid_type")],
  ["bulk decision of an unknown approval", ["POST", "/api/approvals/decide", { ids: [424242], decision: "deny" }], bad(404, "not_found", "ids[0]", "exists")],
  ["delegate without a task", ["POST", "/api/delegate", { name: "d1" }], invalid("task", "invalid_type")],
  ["delegate with maxCost 0", ["POST", "/api/delegate", { name: "d1", task: "x", maxCost: 0 }], invalid("maxCost", "too_small")],
  ["fork without a new name", ["POST", "/api/sessions/ghost/fork", {}], invalid("newName", "invalid_type")],
  ["cleanup with negative days", ["POST", "/api/cleanup", { days: -1 }], invalid("days", "too_small")],
  ["batch with a duplicate name", ["POST", "/api/batch-spawn", { sessions: [{ name: "b1" }, { name: "b1" }] }], invalid("sessions.1.name", "unique")],
  ["stop a missing session", ["POST", "/api/sessions/ghost/stop", {}], bad(404, "not_found", "name", "exists")],
  ["team setting of the wrong value", ["PATCH", "/api/teams/default/settings", { wake: "sometimes" }], invalid("wake", "invalid_value")],
  ["unknown team setting", ["PATCH", "/api/teams/default/settings", { colour: "blue" }], invalid("", "unrecognized_keys")],
  // Work trees (docs/worktrees.md): the input is refused before any session, branch or repository is looked at.
  ["changes at a short commit id", ["GET", "/api/sessions/dev/changes?at=abc123"], invalid("at", "invalid_format", "full commit id")],
  ["changes at a ref name", ["GET", `/api/sessions/dev/changes?at=${encodeURIComponent("HEAD~1")}`], invalid("at", "invalid_format", "40 or 64 hex")],
  ["merge in an unknown mode", ["POST", "/api/sessions/dev/merge", { mode: "rebase" }], invalid("mode", "invalid_value", "merge, squash")],
  ["merge with an empty message", ["POST", "/api/sessions/dev/merge", { message: "" }], invalid("message", "too_small", "must not be empty")],
  ["merge of a branch with ..", ["POST", "/api/sessions/dev/merge", { branch: "teamhub/t/a..b" }], invalid("branch", "invalid_format", "branch name")],
  ["merge of a branch with a leading dash", ["POST", "/api/sessions/dev/merge", { branch: "--force" }], invalid("branch", "invalid_format")],
  ["discard without confirm", ["POST", "/api/sessions/dev/discard", {}], invalid("confirm", "invalid_value", "must be true")],
  ["discard with confirm false", ["POST", "/api/sessions/dev/discard", { confirm: false }], invalid("confirm", "invalid_value", "for good")],
  ["discard of a malformed branch", ["POST", "/api/sessions/dev/discard", { confirm: true, branch: "a b" }], invalid("branch", "invalid_format")],
  ["overlaps of a malformed team", ["GET", `/api/worktree-overlaps?team=${encodeURIComponent("../etc")}`], invalid("team", "invalid_format")],
  ["compare with a malformed a", ["GET", `/api/worktree-compare?a=${encodeURIComponent("x..y")}&b=main`], invalid("a", "invalid_format", "branch name")],
  ["compare with a malformed b", ["GET", `/api/worktree-compare?a=main&b=${encodeURIComponent("-x")}`], invalid("b", "invalid_format", "branch name")],
  ["compare without b", ["GET", "/api/worktree-compare?a=main"], invalid("b", "invalid_type")],
  [
    "Host: evil.example",
    ["POST", "/api/artifacts", { id: "a1", type: "custom", data: {} }, { host: "evil.example" }],
    bad(403, "forbidden", "Host", "allowed_host", "evil.example"),
  ],
  [
    "foreign Origin",
    ["POST", "/api/artifacts", { id: "a1", type: "custom", data: {} }, { origin: "https://evil.example" }],
    bad(403, "forbidden", "Origin", "allowed_origin"),
  ],
  [
    "unknown bearer token",
    ["POST", "/api/artifacts", { id: "a1", type: "custom", data: {} }, { authorization: "Bearer thm_forged" }],
    bad(401, "unauthorized", undefined, undefined, "unknown or revoked"),
  ],
];

/** field/rule of an error: the first issue of invalid_input, else the details. */
function fieldAndRule(error: { details?: { issues?: Array<{ field: string; rule: string }>; field?: string; rule?: string } }) {
  const issue = error.details?.issues?.[0];
  return { field: issue?.field ?? error.details?.field, rule: issue?.rule ?? error.details?.rule };
}

describe("bad input through the HTTP API", () => {
  it.each(apiCases)("%s", async (_name, [method, route, body, headers], want) => {
    const before = dbSnapshot(hub.dbFile);
    const res = await api(hub, method, route, body, headers);
    expect(res.status).toBe(want.status);
    expect(res.body.error.code).toBe(want.code);
    const got = fieldAndRule(res.body.error);
    if (want.field) expect(got.field).toBe(want.field);
    if (want.rule) expect(got.rule).toBe(want.rule);
    if (want.field) expect(res.body.error.message).toContain(want.field);
    if (want.says) expect(res.body.error.message).toContain(want.says);
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
  });
});

type CliCase = [name: string, args: string[], says: string];

const cliCases: CliCase[] = [
  ["--data that is not JSON", ["artifact-publish", "a2", "--type", "custom", "--data", "{bad"], "--data: is not valid JSON"],
  ["id with ../", ["artifact-publish", "../a2", "--type", "custom", "--data", "{}"], "id: must be lowercase letters"],
  [
    "test-results with passed > total",
    ["artifact-publish", "a2", "--type", "test-results", "--data", '{"total":1,"passed":2,"failed":0}'],
    "data.passed: passed + failed + skipped must be ≤ total",
  ],
  [
    "--expected-version that is not a number",
    ["artifact-publish", "a2", "--type", "custom", "--data", "{}", "--expected-version", "abc"],
    "--expected-version: must be a whole number",
  ],
  [
    "unknown dependency",
    ["contract-create", "c2", "--assignee", "dev", "--title", "T", "--depends-on", "ghost"],
    "dependencies[0].contractId: contract 'ghost' does not exist",
  ],
  [
    "--timeout-ms that is not whole",
    ["contract-create", "c2", "--assignee", "dev", "--title", "T", "--timeout-ms", "1.5"],
    "--timeout-ms: must be a whole number",
  ],
  ["missing --assignee", ["contract-create", "c2", "--title", "T"], "required option '--assignee <name>' not specified"],
  ["illegal transition", ["contract-start", "y"], "illegal_transition: contract 'y' is pending"],
  ["three-long cycle", ["contract-depend", "x", "--on", "z"], "would create a dependency cycle: x → z → y → x"],
  ["reopen beyond maxRetries", ["contract-reopen", "once"], "maxRetries is 0"],
  ["unknown command", ["contract-explode", "x"], "unknown command 'contract-explode'"],
];

describe("bad input through the CLI", () => {
  it.each(cliCases)("%s → exit 2", (_name, args, says) => {
    const before = dbSnapshot(hub.dbFile);
    const r = cli(hub.dataDir, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(says);
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
  });

  it("--json prints the hub's error object", () => {
    const r = cli(hub.dataDir, ["contract-start", "y", "--json"]);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: "illegal_transition", details: { current: "pending", operation: "start" } });
  });
});
