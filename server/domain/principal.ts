/**
 * Who is acting (docs/architecture.md#principals). Publisher, reader, assigner and sender are always taken from here,
 * never from free-text arguments.
 */
import type { PrincipalKind } from "../../lib/api/tokens.ts";

export type { PrincipalKind };
export type Principal = { name: string; kind: PrincipalKind; sessionId?: string | null };

export const OPERATOR: Principal = { name: "operator", kind: "operator" };
export const SCHEDULER: Principal = { name: "scheduler", kind: "system" };

/** People at the dashboard/CLI and the hub's own machinery may act for anyone. */
export function actsForAnyone(p: Principal): boolean {
  return p.kind === "operator" || p.kind === "system";
}
/** The session supervisor, recording what the processes it runs did. */
export const SUPERVISOR: Principal = { name: "supervisor", kind: "system" };
