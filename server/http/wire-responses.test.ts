/**
 * The answers of teams, leads, tokens, roster, budgets, continuity, snapshots and pipelines, as
 * the wire carries them: each service result, JSON-encoded as a route sends it, parses through
 * its endpoint's response schema back to the same value (Dates and all). A field the schema does
 * not describe, a date that is text in the domain or a value outside an enum fails here.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { api } from "../../lib/api/endpoints/index.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";
import { ensureOperatorToken } from "../domain/auth/tokens.service.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { createServices } from "../services.ts";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import { testHubInfo } from "../testing/operations.ts";

let hub: TempHub;
let s: ReturnType<typeof createServices>;
beforeEach(async () => {
  hub = await tempHub();
  await ensureOperatorToken(hub, hub.dir);
  s = createServices(hub, testHubInfo(hub.dir));
});
afterEach(() => hub.close());

/** Calls one operation with its input parsed as the route parses it, and checks its answer survives the wire. */
async function wire<I extends z.ZodType, O extends z.ZodType>(
  endpoint: Endpoint<I, O>,
  raw: Record<string, unknown>,
  op: (actor: Principal, input: z.output<I>) => Promise<z.output<O>>,
  actor: Principal = OPERATOR,
): Promise<z.output<O>> {
  const result = await op(actor, endpoint.input.parse(raw));
  const parsed = endpoint.output.safeParse(JSON.parse(JSON.stringify(result)));
  expect(parsed.success, parsed.error && `${endpoint.method} ${endpoint.path}\n${z.prettifyError(parsed.error)}`).toBe(true);
  expect(parsed.data, `${endpoint.method} ${endpoint.path}`).toEqual(result);
  return result;
}

it("teams, leads, tokens and the roster", async () => {
  await wire(api.teams.create, { id: "alpha" }, (a, i) => s.teams.create(a, i));
  await wire(api.teams.updateSettings, { team: "alpha", wake: "off", maxCostUsd: 2 }, (a, i) => s.teams.updateSettings(a, i));
  await wire(api.teams.settings, { team: "alpha" }, (a, i) => s.teams.settings(a, i));
  await wire(api.auth.createToken, { name: "dev", label: "ci" }, (a, i) => s.auth.createToken(a, i));
  await wire(api.auth.list, {}, (a, i) => s.auth.list(a, i));
  await wire(api.auth.operatorToken, {}, (a, i) => s.auth.operatorToken(a, i));
  await wire(api.leads.grant, { team: "alpha", name: "dev" }, (a, i) => s.leads.grant(a, i));
  await wire(api.leads.list, { team: "alpha" }, (a, i) => s.leads.list(a, i));
  await wire(api.leads.revoke, { team: "alpha", name: "dev" }, (a, i) => s.leads.revoke(a, i));
  await wire(api.roster.upsert, { team: "alpha", name: "dev", role: "db", status: "busy", currentTask: "schema" }, (a, i) => s.roster.upsert(a, i));
  await wire(api.roster.list, { team: "alpha" }, (a, i) => s.roster.list(a, i));
  await wire(api.auth.revoke, { name: "dev", label: "ci" }, (a, i) => s.auth.revoke(a, i));
  await wire(api.teams.archive, { team: "alpha" }, (a, i) => s.teams.archive(a, i));
  const teams = await wire(api.teams.list, {}, (a, i) => s.teams.list(a, i));
  expect(teams.map((t) => [t.id, t.archivedAt instanceof Date])).toEqual([["alpha", true]]);
});

it("budgets and continuity", async () => {
  await wire(api.budgets.set, { scope: "team", amountUsd: 5, period: "month" }, (a, i) => s.budgets.set(a, i));
  await wire(api.budgets.set, { scope: "member", target: "dev", amountUsd: 1 }, (a, i) => s.budgets.set(a, i));
  await wire(api.budgets.list, {}, (a, i) => s.budgets.list(a, i));
  await wire(api.budgets.own, {}, (a, i) => s.budgets.own(a, i), { name: "dev", kind: "member" });
  await wire(api.continuity.recordCheckpoint, { kind: "pre_compact", state: { summary: "halfway", changedFiles: ["a.ts"] } }, (a, i) =>
    s.continuity.recordCheckpoint(a, i),
  );
  await wire(api.continuity.latestCheckpoint, {}, (a, i) => s.continuity.latestCheckpoint(a, i));
  await wire(api.continuity.hook, { event: "stop", hook: { session_id: "s1", last_assistant_message: "done" } }, (a, i) => s.continuity.hook(a, i));
  await wire(api.continuity.recordDecision, { title: "SQL", decision: "portable", alternatives: ["json_each"] }, (a, i) => s.continuity.recordDecision(a, i));
  await wire(api.continuity.registerPattern, { name: "naming", description: "kebab-case ids", examples: ["db-schema"] }, (a, i) =>
    s.continuity.registerPattern(a, i),
  );
  await wire(api.continuity.getPattern, { name: "naming" }, (a, i) => s.continuity.getPattern(a, i));
  await wire(api.continuity.listPatterns, {}, (a, i) => s.continuity.listPatterns(a, i));
  await wire(api.continuity.listDecisions, {}, (a, i) => s.continuity.listDecisions(a, i));
  const start = await wire(api.continuity.hook, { event: "session-start", hook: { session_id: "s2" }, git: { head: "abcdef1" } }, (a, i) =>
    s.continuity.hook(a, i),
  );
  expect([start.briefing?.since?.kind, start.briefing?.decisions.items.map((d) => d.title)]).toEqual(["stop", ["SQL"]]);
  await wire(api.continuity.briefing, {}, (a, i) => s.continuity.briefing(a, i));
});

it("snapshots and pipelines", async () => {
  const rule = { trigger: { type: "contract_completed" }, condition: "contract.id == 'build'", action: { type: "broadcast", message: "built ${contract.id}" } };
  await wire(api.pipelines.create, { id: "ci", rules: [rule] }, (a, i) => s.pipelines.create(a, i));
  await wire(api.roster.upsert, { name: "dev" }, (a, i) => s.roster.upsert(a, i));
  await wire(api.snapshots.take, { id: "s1", label: "before" }, (a, i) => s.snapshots.take(a, i));
  await wire(api.pipelines.pause, { id: "ci" }, (a, i) => s.pipelines.pause(a, i));
  await wire(api.pipelines.resume, { id: "ci" }, (a, i) => s.pipelines.resume(a, i));
  await wire(api.pipelines.list, {}, (a, i) => s.pipelines.list(a, i));
  await wire(api.pipelines.get, { id: "ci" }, (a, i) => s.pipelines.get(a, i));
  await wire(api.pipelines.validate, { id: "ci", rules: [{ trigger: { type: "nope" } }] }, (a, i) => s.pipelines.validate(a, i));
  const sample = {
    type: "contract.status_changed",
    payload: { id: "build", from: "in_progress", to: "completed", reason: null, assignee: "dev", retryCount: 0 },
  };
  await wire(api.pipelines.dryRun, { rule, event: sample }, (a, i) => s.pipelines.dryRun(a, i));
  await wire(api.snapshots.list, {}, (a, i) => s.snapshots.list(a, i));
  await wire(api.snapshots.get, { id: "s1" }, (a, i) => s.snapshots.get(a, i));
  await wire(api.pipelines.delete, { id: "ci" }, (a, i) => s.pipelines.delete(a, i));
  const diff = await wire(api.snapshots.diff, { a: "s1" }, (a, i) => s.snapshots.diff(a, i));
  expect(diff.pipelines.removed.map((p) => p.id)).toEqual(["ci"]);
  await wire(api.snapshots.rollbackPreview, { id: "s1" }, (a, i) => s.snapshots.rollbackPreview(a, i));
  await wire(api.snapshots.replayPreview, { id: "s1" }, (a, i) => s.snapshots.replayPreview(a, i));
  const undo = await wire(api.snapshots.rollback, { id: "s1" }, (a, i) => s.snapshots.rollback(a, i));
  await wire(api.snapshots.replay, { id: "s1" }, (a, i) => s.snapshots.replay(a, i));
  await wire(api.snapshots.delete, { id: undo.autoSnapshot }, (a, i) => s.snapshots.delete(a, i));
});
