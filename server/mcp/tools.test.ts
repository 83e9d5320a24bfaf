/**
 * The MCP tools against the operations' definitions (server/operations/): an operation whose definition declares a tool
 * is that tool, with its endpoint's own input schema and its service, so it cannot drift from the HTTP route; one that
 * declares none says why agents do not get it, and no tool carries it.
 */
import { describe, expect, it } from "vitest";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { ALL } from "../operations/index.ts";
import { outputJsonSchema } from "./tool.ts";
import { TOOLS } from "./tools.ts";

describe("MCP tools and the operations' definitions", () => {
  it("makes every operation the tool its definition names, or no tool when it says why not", () => {
    const carried = (d: (typeof ALL)[number]) => TOOLS.filter((t) => t.endpoint === d.endpoint).map((t) => t.name);
    expect(ALL.filter((d) => "none" in d.mcp && carried(d).length > 0).map((d) => d.key)).toEqual([]);
    expect(ALL.flatMap((d) => ("name" in d.mcp && carried(d).join() !== d.mcp.name ? [[d.key, carried(d)]] : []))).toEqual([]);
    expect(ALL.filter((d) => "none" in d.mcp && d.mcp.none.length < 20).map((d) => d.key)).toEqual([]);
  });

  it("gives an operation's tool the endpoint's own input schema, and every tool a name of its own", () => {
    expect(TOOLS.filter((t) => t.endpoint && t.schema !== t.endpoint.input).map((t) => t.name)).toEqual([]);
    const names = TOOLS.map((t) => t.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("ends a tool's description with who may call it, from its definition", () => {
    const description = (name: string) => TOOLS.find((t) => t.name === name)!.description;
    expect(description("team_reset")).toMatch(/Needs confirm: true\. Only a lead of the team or the operator may\.$/);
    expect(description("contract_start")).toMatch(/pinned now\. Only its assignee, a lead of the team or the operator may\.$/);
    expect(description("team_events")).toMatch(/\(oldest first\)\. With hub: true, only the operator may\.$/);
    expect(description("budget_set")).toMatch(
      /With scope: contract, only its assigner \(within its own budget\), a lead of the team or the operator may\. Otherwise, only the operator may\.$/,
    );
    expect(description("contract_create")).toMatch(/after it became ready\)\.$/);
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
