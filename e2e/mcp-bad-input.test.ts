/**
 * Every MCP tool, called with arguments generated from its own input schema to be missing,
 * wrong-typed or hostile: each call ends in `isError` with a message naming the field, nothing
 * hangs, the hub keeps serving, and the database is byte-for-byte what it was.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { dbSnapshot } from "./helpers/db-snapshot.ts";
import { httpClient } from "./helpers/mcp-client.ts";

type Prop = {
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Prop[];
  oneOf?: Prop[];
};
type Schema = { properties?: Record<string, Prop>; required?: string[] };

let hub: HubProcess;
let client: Client;
let token: string;
beforeAll(async () => {
  hub = await startHub();
  // Some state, so that a mistaken write would have something to change.
  await api(hub, "POST", "/api/contracts", { id: "existing", title: "Existing", assignee: "dev" });
  await api(hub, "POST", "/api/artifacts", { id: "doc", type: "custom", data: { n: 1 } });
  token = (await api(hub, "POST", "/api/tokens", { name: "fuzzer" })).body.token;
  client = await httpClient(hub.url, token);
});
afterAll(async () => {
  await client?.close();
  await hub?.kill();
});

const WRONG: Record<string, unknown[]> = {
  string: [42, true, null, [], { a: 1 }],
  integer: ["7", 1.5, -1e308, true, null, [], {}],
  number: ["7", true, null, [], {}],
  boolean: ["true", 1, null, [], {}],
  array: ["a,b", 3, { 0: "a" }, null, true],
  object: ["{}", 1, [], null, true],
};

const HOSTILE_STRINGS = [
  "../../etc/passwd",
  '\'; DROP TABLE "Artifact"; --',
  "__proto__",
  "constructor",
  "${process.exit()}",
  "a".repeat(100_000),
  "\u0000nul",
  "ärtifact",
  "‮evil",
  "",
  "-leading-dash",
  "UPPER case",
];

function typesOf(p: Prop): string[] {
  const alts = p.anyOf ?? p.oneOf;
  if (alts) return alts.flatMap(typesOf);
  return p.type === undefined ? [] : Array.isArray(p.type) ? p.type : [p.type];
}

/** Argument sets that must all be refused, derived from a tool's JSON Schema. */
function badArguments(schema: Schema): Array<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const out: Array<Record<string, unknown>> = [];
  if ((schema.required ?? []).length) out.push({});
  for (const [name, p] of Object.entries(props)) {
    const types = typesOf(p);
    if (types.length === 0) continue;
    for (const t of types) for (const v of WRONG[t] ?? []) if (!types.includes(jsonType(v))) out.push({ [name]: v });
    if (types.includes("string") && (p.pattern || p.enum || p.maxLength)) {
      for (const h of HOSTILE_STRINGS) if (violates(p, h)) out.push({ [name]: h });
    }
    if (types.includes("integer") || types.includes("number")) {
      if (p.minimum !== undefined) out.push({ [name]: p.minimum - 1 });
      if (p.maximum !== undefined) out.push({ [name]: p.maximum + 1 });
    }
  }
  out.push({ constructor: "x" }, { unexpected_argument: 1 }, { hasOwnProperty: "x" });
  if (!("publisher" in props)) out.push({ publisher: "someone-else" });
  return out;
}

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

function violates(p: Prop, s: string): boolean {
  if (p.enum) return !p.enum.includes(s);
  if (p.maxLength !== undefined && s.length > p.maxLength) return true;
  return p.pattern !== undefined && !new RegExp(p.pattern).test(s);
}

describe("MCP tools with bad arguments", () => {
  it("refuses every bad call with a clear error and changes nothing", async () => {
    const { tools } = await client.listTools();
    const before = dbSnapshot(hub.dbFile);
    let calls = 0;
    const unclear: string[] = [];
    for (const t of tools) {
      const cases = [
        ...badArguments(t.inputSchema as Schema),
        "not an object" as unknown as Record<string, unknown>,
        [1, 2] as unknown as Record<string, unknown>,
      ];
      for (const args of cases) {
        calls++;
        const r = (await Promise.race([
          client.callTool({ name: t.name, arguments: args }),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`${t.name} hung on ${JSON.stringify(args).slice(0, 80)}`)), 10_000)),
        ]).catch((e: Error) => ({ isError: true, content: [{ type: "text", text: `protocol: ${e.message}` }] }))) as {
          isError?: boolean;
          content: Array<{ text: string }>;
        };
        const text = r.content[0]?.text ?? "";
        const clear = r.isError === true && /^(invalid_input|protocol): /.test(text) && !text.includes("internal");
        if (!clear) unclear.push(`${t.name}(${JSON.stringify(args).slice(0, 100)}) → ${r.isError ? "" : "NOT AN ERROR: "}${text.slice(0, 150)}`);
      }
    }
    expect(unclear).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(1000);
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
    expect((await api(hub, "GET", "/api/health")).body.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.log(`[mcp-bad-input] ${calls} bad calls over ${tools.length} tools, all refused`);
  }, 240_000);

  it("refuses bad work-tree arguments naming the field and its rule, before any session or repository is looked at", async () => {
    // [tool, arguments, what the error must say]; the session needs no work tree: the input is refused first.
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["session_changes", { name: "dev", at: "abc123" }, "at: must be a full commit id"],
      ["session_changes", { name: "dev", at: "HEAD~1" }, "at: must be a full commit id"],
      ["session_merge", { name: "dev", mode: "rebase" }, "mode: must be one of merge, squash"],
      ["session_merge", { name: "dev", message: "" }, "message: must not be empty"],
      ["session_merge", { name: "dev", branch: "teamhub/t/a..b" }, "branch: must be a branch name"],
      ["session_merge", { name: "dev", branch: "--force" }, "branch: must be a branch name"],
      ["session_discard", { name: "dev" }, "confirm: must be true"],
      ["session_discard", { name: "dev", confirm: false }, "confirm: must be true"],
      ["session_discard", { name: "dev", confirm: true, branch: "a b" }, "branch: must be a branch name"],
      ["worktree_overlaps", { team: "../etc" }, "team: "],
      ["worktree_left_branches", { team: "../etc" }, "team: "],
      ["worktree_compare", { a: "x..y", b: "main" }, "a: must be a branch name"],
      ["worktree_compare", { a: "main", b: "-x" }, "b: must be a branch name"],
    ];
    const listed = new Set((await client.listTools()).tools.map((t) => t.name));
    expect(cases.map(([tool]) => tool).filter((tool) => !listed.has(tool))).toEqual([]);
    const before = dbSnapshot(hub.dbFile);
    for (const [tool, args, says] of cases) {
      const r = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(r.isError, `${tool}(${JSON.stringify(args)})`).toBe(true);
      expect(r.content[0].text, `${tool}(${JSON.stringify(args)})`).toContain(`invalid_input: ${says}`);
    }
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
  });

  it("discards a __proto__ argument sent as raw JSON: nothing is polluted or written", async () => {
    const session = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const before = dbSnapshot(hub.dbFile);
    for (const name of ["server_version", "artifact_publish", "artifact_list"]) {
      const res = await fetch(`${hub.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-06-18",
          authorization: `Bearer ${token}`,
        },
        body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":{"__proto__":{"polluted":true,"id":"x","type":"custom","data":{}}}}}`,
      });
      const body = await res.text();
      const result = JSON.parse(body.slice(body.indexOf("{")).split("\n")[0]).result;
      // The protocol layer drops the key while parsing, so the call arrives without arguments.
      if (name === "artifact_publish") expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("invalid_input: id:") }] });
      else expect(result.isError).toBeFalsy();
    }
    expect(dbSnapshot(hub.dbFile)).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
