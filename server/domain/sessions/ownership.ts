/**
 * A session as the target of a guarded operation (docs/security.md#capabilities): it is owned by itself (acting as its
 * member name) and by the principal that spawned it; leads of its team and the operator may too.
 */
import type { Sql } from "../../db/connection.ts";
import { authorize, permitsMany, type Operation, type Permits, type Target } from "../auth/capabilities.ts";
import type { Principal } from "../principal.ts";
import type { SessionRow } from "../../db/rows.ts";

type Owned = Pick<SessionRow, "name" | "teamId" | "principal" | "spawnedBy">;

/** Who owns a session: the principal it acts as (its name unless set) and whoever spawned it. */
export const sessionOwners = (s: { name: string; principal?: string | null; spawnedBy?: string | null }): Array<string | null | undefined> => [
  s.principal ?? s.name,
  s.spawnedBy,
];

export const sessionTarget = (s: Owned): Target => ({ team: s.teamId, owners: sessionOwners(s), label: `'${s.name}'` });

export const authorizeSession = (sql: Sql, actor: Principal, operation: Operation, s: Owned) => authorize(sql, actor, operation, sessionTarget(s));

/** `may`: a `permitsMany` of the same read, so repeated checks share one lead lookup. */
export const ownsSession = (sql: Sql, actor: Principal, s: Owned, may: Permits = permitsMany(sql, actor)) => may("session.read", sessionTarget(s));
