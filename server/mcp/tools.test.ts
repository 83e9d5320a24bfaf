/**
 * The MCP tools against the operation catalog (lib/api/endpoints): a tool that is an operation takes the endpoint's
 * own input schema and its service, so it cannot drift from the HTTP route; every operation of the catalog is either
 * such a tool or named below with why agents do not get it, so a new endpoint makes its author decide.
 */
import { describe, expect, it } from "vitest";
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import { OTHERWISE_SERVED, operationOf } from "../operations.ts";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { outputJsonSchema } from "./tool.ts";
import { TOOLS } from "./tools/index.ts";

const ADMINISTRATION = "the operator's administration of the hub (dashboard and CLI), not an agent's work";
const A_PERSONS_DECISION = "a person's decision: an agent never decides a permission request, its own or another's";
const A_VIEW = "a view of the dashboard or the CLI; agents read the same facts through the listed tools";
const HOOKS = "the teamhub commands Claude Code's hooks run call it on the session's behalf (docs/mcp.md#continuity-hooks)";

/** Operations no tool carries out, and why. */
const NO_TOOL: Record<string, string> = {
  "auth.operatorToken": ADMINISTRATION,
  "auth.list": ADMINISTRATION,
  "auth.createToken": ADMINISTRATION,
  "auth.revoke": ADMINISTRATION,
  "leads.list": ADMINISTRATION,
  "leads.grant": ADMINISTRATION,
  "leads.revoke": ADMINISTRATION,
  "hubs.list": ADMINISTRATION,
  "teams.list": ADMINISTRATION,
  "teams.create": ADMINISTRATION,
  "teams.archive": ADMINISTRATION,
  "teams.demo": ADMINISTRATION,
  "teams.settings": ADMINISTRATION,
  "teams.updateSettings": ADMINISTRATION,
  "teams.permissions": ADMINISTRATION,
  "sessions.cleanup": ADMINISTRATION,
  "budgets.list": `${ADMINISTRATION}; an agent reads its own with budget_own`,
  "artifacts.registerType": `${ADMINISTRATION}: a team's artifact types are set up before agents publish them`,
  "sessions.approvals": A_PERSONS_DECISION,
  "sessions.approvalCount": A_PERSONS_DECISION,
  "sessions.decide": A_PERSONS_DECISION,
  "sessions.decideMany": A_PERSONS_DECISION,
  "sessions.retry": "a person's retry of a failed turn from the dashboard; an agent sends the message again",
  "knowledge.editWisdom": "wisdom is append-only: the endpoint exists to refuse edits with that rule",
  "knowledge.deleteWisdom": "wisdom is append-only: the endpoint exists to refuse deletions with that rule",
  "chat.messages": A_VIEW,
  "chat.unread": A_VIEW,
  "sessions.transcript": A_VIEW,
  "snapshots.get": A_VIEW,
  "overview.get": A_VIEW,
  "graph.get": A_VIEW,
  "health.get": `${A_VIEW}; server_version answers an agent`,
  "pipelines.matchingEvents": "the pipeline editor's preview of which events a trigger matches",
  "pipelines.validate": "the pipeline editor's check as the rules are typed; pipeline_create refuses the same errors",
  "continuity.latestCheckpoint": HOOKS,
  "continuity.hook": HOOKS,
  "continuity.briefingPost": HOOKS,
  "sessions.send": "send_message carries it, waiting for the reply unless told not to",
  "roster.upsert": "team_update_status carries it, defaulting the name to the caller",
};

const operations = Object.values(api).flatMap((endpoints) => Object.values(endpoints).map((e: Endpoint) => operationOf(e)));

describe("MCP tools and the operation catalog", () => {
  it("makes every operation a tool or says why agents do not get it", () => {
    const tools = new Set(TOOLS.flatMap((t) => (t.endpoint ? [operationOf(t.endpoint)] : [])));
    expect(operations.filter((op) => !tools.has(op) && !(op in NO_TOOL))).toEqual([]);
    // A reason left behind for an operation that became a tool, or that is gone, is a wrong reason.
    expect(Object.keys(NO_TOOL).filter((op) => tools.has(op) || !operations.includes(op))).toEqual([]);
  });

  it("gives an operation's tool the endpoint's own input schema, and no operation two tools", () => {
    const withEndpoint = TOOLS.filter((t) => t.endpoint);
    expect(withEndpoint.filter((t) => t.schema !== t.endpoint!.input).map((t) => t.name)).toEqual([]);
    const ops = withEndpoint.map((t) => operationOf(t.endpoint!));
    expect(ops.filter((op, i) => ops.indexOf(op) !== i)).toEqual([]);
    // Those served otherwise have no service of their name to derive a tool's from.
    expect(ops.filter((op) => (OTHERWISE_SERVED as readonly string[]).includes(op))).toEqual([]);
  });
});

describe("MCP annotations", () => {
  const hints = (name: string) => {
    const { readOnlyHint, destructiveHint } = TOOLS.find((t) => t.name === name)!.annotations;
    return { readOnlyHint, destructiveHint };
  };

  it("come from the endpoint's effect, where the method alone would say otherwise too", () => {
    // A GET that records the read; POSTs that only preview; a POST that kills; a DELETE of an edge, which destroys nothing.
    expect(hints("artifact_get")).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(hints("team_rollback_preview")).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(hints("pipeline_dry_run")).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(hints("kill_session")).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(hints("contract_remove_dependency")).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(hints("webhook_delete")).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(hints("artifact_list")).toEqual({ readOnlyHint: true, destructiveHint: false });
  });
});

describe("MCP output schemas", () => {
  // The validator the SDK's client holds every structuredContent to, failures included.
  const ajv = new AjvJsonSchemaValidator();
  const check = (name: string, value: unknown) => ajv.getValidator(outputJsonSchema(TOOLS.find((t) => t.name === name)!) as never)(value).valid;
  const failure = { error: { code: "not_found", message: "artifact 'x' not found", details: { field: "id" } } };

  it("gives every operation's tool its endpoint's answer or the error as output schema, and the others none", () => {
    for (const t of TOOLS) {
      const schema = outputJsonSchema(t);
      expect(schema === null, t.name).toBe(t.endpoint === null);
      if (schema) expect(ajv.getValidator(schema as never)(failure).valid, t.name).toBe(true);
    }
  });

  it("accepts a list as {items} and refuses an answer that is not the endpoint's", () => {
    const session = { name: "a", team: "t" };
    expect(check("list_sessions", { items: [] })).toBe(true);
    expect(check("list_sessions", { items: [session] })).toBe(false);
    expect(check("list_sessions", [])).toBe(false);
    expect(check("artifact_publish", { artifactId: "x" })).toBe(false);
    expect(check("artifact_publish", { error: { message: "no code" } })).toBe(false);
  });
});
