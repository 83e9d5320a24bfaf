/**
 * What a principal may read of the event log and of live transcripts (docs/security.md#capabilities). Every door that hands
 * out events (`/api/events`, `/ws` replay and push, MCP resources) filters through here, so a member
 * never sees another member's direct messages, approval inputs or token events by any route.
 */
import type { HubEvent } from "../../events/types.ts";
import type { MessageKind } from "../../../lib/api/chat.ts";
import { actsForAnyone, type Principal } from "../principal.ts";
import { sessionOwners } from "../sessions/ownership.ts";

/**
 * Message kinds addressed to one recipient: a member's conversations and the notices about its
 * contracts are its own; broadcasts and pipeline notices go to everyone.
 */
const ADDRESSED = new Set<MessageKind>(["dm", "ask", "reply", "contract"]);

/** The event as `p` may see it: unchanged, with private fields removed, or null when it is not theirs to see. */
export function eventFor(p: Principal, e: HubEvent): HubEvent | null {
  if (actsForAnyone(p)) return e;
  // Hub-wide events are about tokens and principals: operator business only.
  if (e.teamId === null) return null;
  if (e.type === "message.sent") {
    const { from, to, kind } = e.payload;
    if (ADDRESSED.has(kind) && to !== null && from !== p.name && to !== p.name) return null;
    return e;
  }
  if (e.type === "session.approval_requested" && "input" in e.payload) {
    // What a tool call would do is shown to the people who decide it, not to other agents.
    const { input: _hidden, ...rest } = e.payload;
    return { ...e, payload: { ...rest, inputHidden: true } };
  }
  return e;
}

/** Live transcript lines of a session: the operator's, and the session's own principal's. */
export function transcriptVisibleTo(p: Principal, session: { name: string; principal?: string | null; spawnedBy?: string | null }): boolean {
  return actsForAnyone(p) || p.sessionId === session.name || sessionOwners(session).includes(p.name);
}
