/**
 * Which logged events a rule's trigger fires on, and the variables a fired rule sees. The
 * variables describe the event and the entity it is about, nothing else: an expression can
 * reach no other data of the hub.
 */
import { jsonColumn, jsonColumnOrNull, stringsOf, type ArtifactRow, type ArtifactVersionRow, type ContractRow, type StateUpdateRow } from "../../db/rows.ts";
import type { Sql } from "../../db/connection.ts";
import type { HubEvent, HubEventOf } from "../../events/types.ts";
import { inList, sql } from "../../db/sql.ts";
import { scopeOf, type Scope, type Trigger, type TriggerType } from "../../../lib/api/pipelines.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { JsonObject, JsonValue } from "../../../lib/api/common.ts";
import { toCel } from "./expressions.ts";

/** The event-log type each trigger listens to (a type of the catalog, docs/events.md), and the extra test on that event. */
const FIRES_ON: Record<TriggerType, (e: HubEvent) => boolean> = {
  artifact_published: (e) => e.type === "artifact.published",
  artifact_version_bumped: (e) => e.type === "artifact.published" && e.payload.version >= 2,
  contract_completed: (e) => e.type === "contract.status_changed" && e.payload.to === "completed",
  contract_failed: (e) => e.type === "contract.status_changed" && e.payload.to === "failed",
  contract_reopened: (e) => e.type === "contract.status_changed" && e.payload.operation === "reopen",
  artifact_stale: (e) => e.type === "artifact.stale",
  message_received: (e) => e.type === "message.sent" && e.payload.to !== null,
  state_updated: (e) => e.type === "state.updated",
};

export const firesOn = (trigger: Trigger, e: HubEvent) => FIRES_ON[trigger.type](e);

/** The one event type of the log each trigger can fire on: where to look for the events it would have fired on. */
export const LISTENS_TO: Record<TriggerType, "artifact.published" | "artifact.stale" | "contract.status_changed" | "message.sent" | "state.updated"> = {
  artifact_published: "artifact.published",
  artifact_version_bumped: "artifact.published",
  contract_completed: "contract.status_changed",
  contract_failed: "contract.status_changed",
  contract_reopened: "contract.status_changed",
  artifact_stale: "artifact.stale",
  message_received: "message.sent",
  state_updated: "state.updated",
};

export type EventContext = {
  scope: Scope;
  vars: Record<string, unknown>;
  subject: { id: string; type?: string; by: string; to?: string; role?: string; status?: string };
};

/** Whether the trigger's filters accept this (hydrated) event. */
export function passesFilters(t: Trigger, ctx: EventContext): boolean {
  const s = ctx.subject;
  return (
    (t.artifactType === undefined || t.artifactType === s.type) &&
    (t.artifactId === undefined || t.artifactId === s.id) &&
    (t.contractId === undefined || t.contractId === s.id) &&
    (t.publisher === undefined || t.publisher === s.by) &&
    (t.to === undefined || t.to === s.to) &&
    (t.role === undefined || t.role === s.role) &&
    (t.status === undefined || t.status === s.status)
  );
}

/** A state update's variables from its event's payload (a dry run's sample has no row behind it). */
export const stateVars = (p: { id: number; member: string; role: string; status: string; task: string; ref: string | null }) => ({
  id: BigInt(p.id),
  member: p.member,
  role: p.role,
  status: p.status,
  task: p.task,
  ref: p.ref ?? "",
});

/** The `event` variable every rule sees. */
export function eventVars(e: HubEvent) {
  return {
    id: BigInt(e.id),
    type: e.type,
    subject: e.subject,
    principal: e.principal,
    depth: BigInt(e.depth),
    at: e.at.toISOString(),
    team: e.teamId ?? "",
    payload: toCel(e.payload),
  };
}

/** A version as a rule sees it; `data` is null unless it was asked for. */
type VersionFacts = Pick<ArtifactRow, "id" | "type" | "name"> &
  Pick<ArtifactVersionRow, "version" | "publisher" | "contractId" | "summary"> & { data: ArtifactVersionRow["data"] | null };
type ContractFacts = Pick<
  ContractRow,
  "id" | "title" | "status" | "assignee" | "assigner" | "priority" | "retryCount" | "maxRetries" | "statusReason" | "inputs"
>;
type StateFacts = Pick<StateUpdateRow, "id" | "keyFindings" | "verification">;

/**
 * The variables for a rule fired by `e`, or null when what the event is about no longer exists
 * (for example, removed by a team reset before the runner got to it).
 */
export async function contextFor(s: Sql, e: HubEvent, trigger: TriggerType, withData: boolean): Promise<EventContext | null> {
  return (await contextsFor(s, [e], trigger, withData))[0];
}

/**
 * contextFor of each of `events`, in their order: the rows they are about are read with one query per team and kind
 * of entity, so looking through a page of the log does not cost a query per event.
 */
export async function contextsFor(s: Sql, events: HubEvent[], trigger: TriggerType, withData: boolean): Promise<Array<EventContext | null>> {
  const scope = scopeOf(trigger);
  const versions = await versionsOf(s, events.filter(isEvent("artifact.published", "artifact.stale")), withData);
  const contracts = await contractsOf(s, events.filter(isEvent("contract.status_changed")));
  const states = await statesOf(s, events.filter(isEvent("state.updated")));
  return events.map((e): EventContext | null => {
    const event = eventVars(e);
    if (e.type === "artifact.published" || e.type === "artifact.stale") {
      const v = versions.get(keyOf(e.teamId, e.payload.artifactId, e.payload.version));
      if (!v) return null;
      const artifact = {
        id: v.id,
        type: v.type,
        name: v.name,
        version: BigInt(v.version),
        publisher: v.publisher,
        contractId: v.contractId,
        summary: v.summary,
      };
      return { scope, vars: { event, artifact, data: toCel(jsonColumnOrNull(JsonValue, v.data)) }, subject: { id: v.id, type: v.type, by: v.publisher } };
    }
    if (e.type === "contract.status_changed") {
      const c = contracts.get(keyOf(e.teamId, e.payload.id));
      if (!c) return null;
      // The event's own view of the change wins over the row, which may have moved on since.
      const contract = {
        ...c,
        status: e.payload.to,
        statusReason: e.payload.reason ?? c.statusReason,
        retryCount: BigInt(e.payload.retryCount),
        maxRetries: BigInt(c.maxRetries),
        inputs: toCel(jsonColumn(JsonObject, c.inputs)),
      };
      return { scope, vars: { event, contract }, subject: { id: c.id, by: e.principal } };
    }
    if (e.type === "state.updated") {
      const row = states.get(e.payload.id);
      if (!row) return null;
      const p = e.payload;
      const state = { ...stateVars(p), keyFindings: stringsOf(row.keyFindings), verification: row.verification };
      return { scope, vars: { event, state }, subject: { id: p.member, by: p.member, role: p.role, status: p.status } };
    }
    if (e.type !== "message.sent") return null;
    const p = e.payload;
    const message = { id: BigInt(p.messageId ?? 0), from: p.from, to: p.to ?? "", kind: p.kind, text: p.text };
    return { scope, vars: { event, message }, subject: { id: String(p.messageId), by: message.from, to: message.to } };
  });
}

const keyOf = (...parts: Array<string | number | null>) => JSON.stringify(parts);

/** An event without a team is about nothing a team's rows hold, so it finds no row. */
const teamsOf = (events: HubEvent[]) => [...new Set(events.flatMap((e) => (e.teamId === null ? [] : [e.teamId])))];

/** The versions the events are about, by team, artifact and version. */
async function versionsOf(s: Sql, events: Array<HubEventOf<"artifact.published" | "artifact.stale">>, withData: boolean): Promise<Map<string, VersionFacts>> {
  const found = new Map<string, VersionFacts>();
  for (const team of teamsOf(events)) {
    const mine = events.filter((e) => e.teamId === team);
    // The two lists together may also select versions no event names: the map is only asked for the pairs that are.
    const ids = new Set(mine.map((e) => e.payload.artifactId));
    const versions = new Set(mine.map((e) => e.payload.version));
    const rows = await s.all<VersionFacts>(
      sql`SELECT a."id", a."type", a."name", v."version", v."publisher", v."contractId", v."summary", ${withData ? sql`v."data"` : sql`NULL AS "data"`}
       FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE a."teamId" = ${team} AND a."id" IN ${inList(ids)} AND v."version" IN ${inList(versions)}`,
    );
    for (const r of rows) found.set(keyOf(team, r.id, r.version), r);
  }
  return found;
}

/** The contracts the events are about, by team and id. */
async function contractsOf(s: Sql, events: Array<HubEventOf<"contract.status_changed">>): Promise<Map<string, ContractFacts>> {
  const found = new Map<string, ContractFacts>();
  for (const team of teamsOf(events)) {
    const ids = new Set(events.filter((e) => e.teamId === team).map((e) => e.payload.id));
    const rows = await s.all<ContractFacts>(
      sql`SELECT "id","title","status","assignee","assigner","priority","retryCount","maxRetries","statusReason","inputs" FROM "Contract" WHERE "teamId" = ${team} AND "id" IN ${inList(ids)}`,
    );
    for (const r of rows) found.set(keyOf(team, r.id), r);
  }
  return found;
}

/** The state updates the events are about, by id. */
async function statesOf(s: Sql, events: Array<HubEventOf<"state.updated">>): Promise<Map<number, StateFacts>> {
  if (events.length === 0) return new Map();
  const rows = await s.all<StateFacts>(
    sql`SELECT "id","keyFindings","verification" FROM "StateUpdate" WHERE "id" IN ${inList(new Set(events.map((e) => e.payload.id)))}`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
