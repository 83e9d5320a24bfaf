/**
 * A session as the target of a guarded operation (§13): it is owned by itself (acting as its
 * member name) and by the principal that spawned it; leads of its team and the operator may too.
 */
import type { Sql } from "../../db/connection.ts";
import { authorize, permits, type Operation, type Target } from "../auth/capabilities.ts";
import type { Principal } from "../principal.ts";
import type { SessionRow } from "./sessions.repo.ts";

type Owned = Pick<SessionRow, "name" | "teamId" | "principal" | "spawnedBy">;

export const sessionTarget = (s: Owned): Target => ({ team: s.teamId, owners: [s.principal ?? s.name, s.spawnedBy], label: `'${s.name}'` });

export const authorizeSession = (sql: Sql, actor: Principal, operation: Operation, s: Owned) => authorize(sql, actor, operation, sessionTarget(s));

export const ownsSession = (sql: Sql, actor: Principal, s: Owned) => permits(sql, actor, "session.read", sessionTarget(s));
