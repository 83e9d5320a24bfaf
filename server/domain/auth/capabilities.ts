/**
 * Who may do what (docs/security.md#capabilities): ONE table of guarded operations, and `authorize`, which every domain
 * service calls before it changes or reveals anything guarded. Adapters never decide this.
 *
 * Rules, from narrowest to widest:
 * - `operator`: the operator (a person at the dashboard or CLI) and the hub's own machinery only.
 * - `lead`: also principals the operator granted `lead` on the target's team (TeamGrant).
 * - `owner`: also the target's owners (a session: itself and whoever spawned it; a contract: its
 *   assignee or assigner, per operation; a pipeline: its creator; a roster entry or checkpoint: its member).
 * - `anyone`: every authenticated principal; further limits live in the operation (spawn authority).
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { forbidden } from "../../errors.ts";
import { actsForAnyone, type Principal } from "../principal.ts";

type Rule = "operator" | "lead" | "owner" | "anyone";

type Capability = { rule: Rule; what: string; owners?: string };

export const CAPABILITIES = {
  "tokens.issue": { rule: "operator", what: "issue tokens" },
  "tokens.revoke": { rule: "operator", what: "revoke tokens" },
  "tokens.list": { rule: "operator", what: "list tokens" },
  "tokens.read_operator": { rule: "operator", what: "read the operator token" },
  "leads.grant": { rule: "operator", what: "grant lead on a team" },
  "leads.revoke": { rule: "operator", what: "revoke lead on a team" },
  "leads.list": { rule: "operator", what: "list the leads of a team" },
  "hubs.list": { rule: "operator", what: "list the hubs sharing the database" },
  "events.hub": { rule: "operator", what: "read hub-wide events (tokens, grants)" },
  "team.reset": { rule: "lead", what: "reset the team" },
  "team.archive": { rule: "lead", what: "archive the team" },
  "team.settings": { rule: "lead", what: "change team settings" },
  "team.demo": { rule: "lead", what: "run the Quick Start demo in the team" },
  "snapshot.rollback": { rule: "lead", what: "roll the team back to a snapshot" },
  "snapshot.replay": { rule: "lead", what: "replay a snapshot" },
  "snapshot.delete": { rule: "lead", what: "delete a snapshot" },
  "sessions.cleanup": { rule: "lead", what: "clean up ended sessions" },
  "approval.decide": { rule: "lead", what: "decide permission requests" },
  "chat.team_messages": { rule: "lead", what: "read the whole conversation of the team" },
  "session.delete": { rule: "owner", what: "delete session", owners: "the session itself or whoever spawned it" },
  "session.stop": { rule: "owner", what: "stop session", owners: "the session itself or whoever spawned it" },
  "session.kill": { rule: "owner", what: "kill session", owners: "the session itself or whoever spawned it" },
  "session.pause": { rule: "owner", what: "pause session", owners: "the session itself or whoever spawned it" },
  "session.resume": { rule: "owner", what: "resume session", owners: "the session itself or whoever spawned it" },
  "session.send": { rule: "owner", what: "send a turn to session", owners: "the session itself or whoever spawned it" },
  "session.fork": { rule: "owner", what: "fork session", owners: "the session itself or whoever spawned it" },
  "session.read": { rule: "owner", what: "read the transcript and output of session", owners: "the session itself or whoever spawned it" },
  "contract.start": { rule: "owner", what: "start contract", owners: "its assignee" },
  "contract.complete": { rule: "owner", what: "complete contract", owners: "its assignee" },
  "contract.fail": { rule: "owner", what: "fail contract", owners: "its assignee" },
  "contract.reopen": { rule: "owner", what: "reopen contract", owners: "its assignee or assigner" },
  "contract.reassign": { rule: "owner", what: "reassign contract", owners: "its assigner" },
  "contract.change_dependencies": { rule: "owner", what: "change dependencies of contract", owners: "its assigner" },
  "pipeline.update": { rule: "owner", what: "change the rules of pipeline", owners: "its creator" },
  "pipeline.pause": { rule: "owner", what: "pause pipeline", owners: "its creator" },
  "pipeline.resume": { rule: "owner", what: "resume pipeline", owners: "its creator" },
  "pipeline.delete": { rule: "owner", what: "delete pipeline", owners: "its creator" },
  "roster.update": { rule: "owner", what: "change the roster entry of", owners: "the member itself" },
  "continuity.read": { rule: "owner", what: "read the checkpoints or briefing of", owners: "the member itself" },
  "exploration.update": { rule: "owner", what: "update the exploration cache entry", owners: "its creator" },
  "budget.set": { rule: "operator", what: "set team or member budgets" },
  "budget.list": { rule: "lead", what: "list the team's budgets" },
  "budget.set_contract": { rule: "owner", what: "set the budget of contract", owners: "its assigner (within its own budget)" },
  "worktree.merge": { rule: "lead", what: "merge a session's work into its base branch" },
  "worktree.discard": { rule: "owner", what: "discard the branch and work tree of session", owners: "the session itself or whoever spawned it" },
  "webhook.create": { rule: "lead", what: "add a webhook to the team" },
  "webhook.list": { rule: "lead", what: "list the team's webhooks" },
  "webhook.update": { rule: "lead", what: "change webhook" },
  "webhook.delete": { rule: "lead", what: "delete webhook" },
  "webhook.test": { rule: "lead", what: "send a test notification to webhook" },
  "webhook.deliveries": { rule: "lead", what: "read the delivery log of webhook" },
  "webhook.hub_events": { rule: "operator", what: "send hub-wide events to webhook" },
  "session.spawn": { rule: "anyone", what: "spawn sessions (within its own authority)" },
  "account.release": { rule: "lead", what: "release or cancel the usage-limit hold of account" },
} as const satisfies Record<string, Capability>;

export type Operation = keyof typeof CAPABILITIES;

/** What the operation acts on: its team (null: hub-wide, so `lead` cannot apply) and, for `owner` rules, who owns it. */
export type Target = { team: string | null; owners?: ReadonlyArray<string | null | undefined>; label?: string };

export async function isLead(s: Sql, name: string, team: string): Promise<boolean> {
  return (await s.get(sql`SELECT 1 FROM "TeamGrant" WHERE "teamId" = ${team} AND "principal" = ${name} AND "role" = 'lead'`)) !== undefined;
}

/** Whether the actor leads a team; `permitsMany` hands `permits` one that remembers its answers. */
type LeadLookup = (team: string) => Promise<boolean>;

/** Whether `actor` may do `operation` on `target`, and if not, the rule that refuses it. */
export async function permits(
  s: Sql,
  actor: Principal,
  operation: Operation,
  target: Target,
  lead: LeadLookup = (team) => isLead(s, actor.name, team),
): Promise<boolean> {
  const { rule } = CAPABILITIES[operation] as Capability;
  if (actsForAnyone(actor) || rule === "anyone") return true;
  if (rule === "operator") return false;
  if (rule === "owner" && target.owners?.some((o) => o !== null && o !== undefined && o === actor.name)) return true;
  return target.team !== null && (await lead(target.team));
}

export type Permits = (operation: Operation, target: Target) => Promise<boolean>;

/** `permits` for many targets in one read: the actor's lead grant is looked up at most once per team. */
export function permitsMany(s: Sql, actor: Principal): Permits {
  const leads = new Map<string, Promise<boolean>>();
  const lead: LeadLookup = (team) => {
    let known = leads.get(team);
    if (!known) leads.set(team, (known = isLead(s, actor.name, team)));
    return known;
  };
  return (operation, target) => permits(s, actor, operation, target, lead);
}

/**
 * Who may do `operation` besides the hub's own machinery, in words: `lead` names the lead (null when the target is
 * hub-wide). Null when anyone may.
 */
export function whoMay(operation: Operation, lead: string | null): string | null {
  const c = CAPABILITIES[operation] as Capability;
  if (c.rule === "anyone") return null;
  const owners = c.rule === "owner" && c.owners ? [c.owners] : [];
  const leads = c.rule === "operator" || lead === null ? [] : [lead];
  return [...owners, ...leads, "the operator"].join(", ").replace(/, ([^,]*)$/, " or $1");
}

/** Throws `forbidden` naming the operation, the principal and the rule unless `actor` may do it. */
export async function authorize(s: Sql, actor: Principal, operation: Operation, target: Target): Promise<void> {
  if (await permits(s, actor, operation, target)) return;
  const c = CAPABILITIES[operation] as Capability;
  const subject = target.label ? ` ${target.label}` : "";
  throw forbidden(
    `'${actor.name}' (${actor.kind}) may not ${c.what}${subject}: only ${whoMay(operation, target.team === null ? null : `a lead of team '${target.team}'`)} may`,
    {
      rule: c.rule,
      operation,
      principal: actor.name,
      ...(target.team === null ? {} : { team: target.team }),
    },
  );
}
