/**
 * The capability table, every operation × every kind of principal: who is let through, and what
 * the refusal names. Lead grants are real rows, written through the grants service.
 */
import { isEvent } from "../../../lib/api/events.ts";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { OPERATOR, SCHEDULER, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { createToken } from "./tokens.service.ts";
import { grantLead, listLeads, revokeLead } from "./grants.service.ts";
import { CAPABILITIES, authorize, permits, type Operation } from "./capabilities.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
  for (const name of ["alice", "lead-a", "lead-b"]) await createToken(hub, OPERATOR, { name, kind: "member" });
  await createToken(hub, OPERATOR, { name: "bot", kind: "agent" });
  await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "a", name: "lead-a" }));
  await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "b", name: "lead-b" }));
});
afterEach(() => hub.close());

const ALICE: Principal = { name: "alice", kind: "member" };
const BOT: Principal = { name: "bot", kind: "agent" };
const SESSION: Principal = { name: "worker", kind: "member", sessionId: "worker" };
const LEAD_A: Principal = { name: "lead-a", kind: "member" };
const LEAD_B: Principal = { name: "lead-b", kind: "member" };

const OPERATIONS = Object.keys(CAPABILITIES) as Operation[];
/** A target on team `a`, owned by alice. */
const target = { team: "a", owners: ["alice"], label: "'x'" };
const may = (p: Principal, op: Operation) => hub.db.read((sql) => permits(sql, p, op, target));

describe("the table", () => {
  it.each(OPERATIONS)("%s: the operator and the hub's machinery always may", async (op) => {
    expect(await may(OPERATOR, op)).toBe(true);
    expect(await may(SCHEDULER, op)).toBe(true);
  });

  it.each(OPERATIONS)("%s: a member, agent or session follows the rule of the table", async (op) => {
    const rule = CAPABILITIES[op].rule;
    for (const p of [BOT, SESSION, LEAD_B]) expect([op, p.name, await may(p, op)]).toEqual([op, p.name, rule === "anyone"]);
    expect([op, "owner", await may(ALICE, op)]).toEqual([op, "owner", rule === "anyone" || rule === "owner"]);
    expect([op, "lead of the team", await may(LEAD_A, op)]).toEqual([op, "lead of the team", rule !== "operator"]);
  });

  it("groups the team-wide and destructive operations under lead, and tokens, grants and budgets under the operator alone", () => {
    const by = (rule: string) => OPERATIONS.filter((op) => CAPABILITIES[op].rule === rule).sort();
    expect(by("operator")).toEqual([
      "budget.set",
      "events.hub",
      "hubs.list",
      "leads.grant",
      "leads.list",
      "leads.revoke",
      "tokens.issue",
      "tokens.list",
      "tokens.read_operator",
      "tokens.revoke",
      "webhook.hub_events",
    ]);
    expect(by("lead")).toEqual([
      "account.release",
      "approval.decide",
      "budget.list",
      "chat.team_messages",
      "sessions.cleanup",
      "snapshot.delete",
      "snapshot.replay",
      "snapshot.rollback",
      "team.archive",
      "team.demo",
      "team.reset",
      "team.settings",
      "webhook.create",
      "webhook.delete",
      "webhook.deliveries",
      "webhook.list",
      "webhook.test",
      "webhook.update",
      "worktree.merge",
    ]);
  });

  it("a hub-wide target leaves lead rules to the operator", async () => {
    expect(await hub.db.read((sql) => permits(sql, LEAD_A, "sessions.cleanup", { team: null }))).toBe(false);
    expect(await hub.db.read((sql) => permits(sql, LEAD_A, "sessions.cleanup", { team: "a" }))).toBe(true);
  });

  it("refuses naming the operation, the principal and the rule", async () => {
    const e = await refusal(hub.db.read((sql) => authorize(sql, LEAD_B, "team.reset", { team: "a" })));
    expect(e).toMatchObject({
      code: "forbidden",
      message: "'lead-b' (member) may not reset the team: only a lead of team 'a' or the operator may",
      details: { rule: "lead", operation: "team.reset", principal: "lead-b", team: "a" },
    });
    const owner = await refusal(hub.db.read((sql) => authorize(sql, BOT, "session.kill", { team: "a", owners: ["alice"], label: "'x'" })));
    expect(owner.message).toBe("'bot' (agent) may not kill session 'x': only the session itself or whoever spawned it, a lead of team 'a' or the operator may");
    const op = await refusal(hub.db.read((sql) => authorize(sql, LEAD_A, "tokens.issue", { team: null })));
    expect(op.message).toBe("'lead-a' (member) may not issue tokens: only the operator may");
  });
});

describe("lead grants", () => {
  it("are granted, listed and revoked by the operator, with an event each", async () => {
    expect((await listLeads(hub, OPERATOR, { team: "a" })).map((l) => [l.principal, l.grantedBy])).toEqual([["lead-a", "operator"]]);
    await revokeLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "a", name: "lead-a" }));
    expect(await listLeads(hub, OPERATOR, { team: "a" })).toEqual([]);
    expect(await may(LEAD_A, "team.reset")).toBe(false);
    expect(hub.events.filter(isEvent("team.lead_granted", "team.lead_revoked")).map((e) => [e.type, e.teamId, e.payload.principal])).toEqual([
      ["team.lead_granted", "a", "lead-a"],
      ["team.lead_granted", "b", "lead-b"],
      ["team.lead_revoked", "a", "lead-a"],
    ]);
  });

  it("are the operator's alone to give, take or list, and a lead cannot grant itself more", async () => {
    for (const p of [LEAD_A, ALICE, SESSION]) {
      expect((await refusedWithoutWriting(hub, () => grantLead(hub, p, parseOrThrow(LeadRefInput, { team: "b", name: p.name })))).details).toMatchObject({
        operation: "leads.grant",
      });
      expect((await refusedWithoutWriting(hub, () => revokeLead(hub, p, parseOrThrow(LeadRefInput, { team: "b", name: "lead-b" })))).code).toBe("forbidden");
      expect((await refusal(listLeads(hub, p, { team: "a" }))).code).toBe("forbidden");
    }
  });

  it("refuses unknown principals, the operator itself and duplicates, writing nothing", async () => {
    const grant = (name: string) => grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "a", name }));
    expect((await refusedWithoutWriting(hub, () => grant("nobody"))).code).toBe("not_found");
    expect((await refusedWithoutWriting(hub, () => grant("lead-a"))).details).toMatchObject({ field: "name", rule: "unique" });
    await createToken(hub, OPERATOR, { name: "bot2", kind: "agent" });
    expect((await grant("bot2")).principal).toBe("bot2");
    expect((await refusedWithoutWriting(hub, () => revokeLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "a", name: "alice" })))).code).toBe(
      "not_found",
    );
  });
});

describe("docs/security.md", () => {
  it("documents every operation with the rule the table gives it", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "../../../docs/security.md"), "utf8");
    const rows = [...doc.matchAll(/^\| `([a-z_.]+)` \| (\w+) \|/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(OPERATIONS.map((op) => [op, CAPABILITIES[op].rule])));
  });
});
