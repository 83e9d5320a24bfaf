/**
 * Which lifecycle buttons a session offers in its state (the hub's state machine in
 * server/domain/sessions/states.ts decides; this only avoids offering what it would refuse).
 */
// Relative paths: the unit tests run this file without the app's "@/" alias.
import { ENDED_STATUSES, LIVE_STATUSES, type SessionStatus, type SessionView } from "../../lib/api/sessions.ts";

const live = (s: SessionStatus) => LIVE_STATUSES.includes(s);
const ended = (s: SessionStatus) => ENDED_STATUSES.includes(s);

export function controlsFor(s: Pick<SessionView, "status" | "claudeSessionId" | "interactions">) {
  return {
    pause: live(s.status) && s.status !== "paused" && s.status !== "queued",
    resume: s.status === "paused" || (ended(s.status) && s.claudeSessionId !== null),
    stop: live(s.status),
    kill: live(s.status),
    fork: s.interactions > 0,
    delete: true,
  };
}
