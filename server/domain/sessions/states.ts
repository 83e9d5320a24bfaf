/**
 * The session state machine (docs/domain.md#session-states). A session is *live* while the hub holds (or is starting) its
 * process, and *ended* otherwise; an ended session with a Claude session id can be resumed.
 *
 *   queued → starting → idle ⇄ busy ⇄ waiting_permission;  any live state ⇄ paused;
 *   any live state → stopped | interrupted | failed | killed → (resume / send) → starting
 * and, by the hubs' sweep alone (not a command, so not in NEXT), starting with no process → queued when its hub is lost.
 */
import { DomainError } from "../../errors.ts";
import { ENDED_STATUSES, LIVE_STATUSES, type SessionStatus } from "../../../lib/api/sessions.ts";

export const LIVE = LIVE_STATUSES;
export const ENDED = ENDED_STATUSES;

export const isLive = (s: string) => (LIVE as readonly string[]).includes(s);

const ENDINGS: SessionStatus[] = ["stopped", "interrupted", "failed", "killed"];

const NEXT: Record<SessionStatus, SessionStatus[]> = {
  queued: ["starting", ...ENDINGS],
  starting: ["idle", "busy", "paused", ...ENDINGS],
  idle: ["busy", "paused", ...ENDINGS],
  busy: ["idle", "waiting_permission", "paused", ...ENDINGS],
  waiting_permission: ["busy", "idle", "paused", ...ENDINGS],
  paused: ["idle", "busy", "waiting_permission", ...ENDINGS],
  stopped: ["starting", "queued"],
  interrupted: ["starting", "queued"],
  failed: ["starting", "queued"],
  killed: ["starting", "queued"],
};

export function canMove(from: SessionStatus, to: SessionStatus): boolean {
  return from === to || NEXT[from].includes(to);
}

export function assertMove(name: string, from: SessionStatus, to: SessionStatus, operation: string): void {
  if (!canMove(from, to)) {
    throw new DomainError("illegal_transition", `session '${name}' is ${from}; ${operation} needs it to be in a state that can become ${to}`, {
      name,
      current: from,
      operation,
      allowedFrom: (Object.keys(NEXT) as SessionStatus[]).filter((s) => NEXT[s].includes(to)),
    });
  }
}
