/** What a team knows and says: chat, continuity (decisions, patterns, checkpoints, briefings) and knowledge. */
import type { Operations } from "../operations.ts";
import { broadcast, sendMessage } from "../domain/chat/send.ts";
import { reply } from "../domain/chat/reply.ts";
import { ask } from "../domain/chat/ask.ts";
import { checkInbox, unreadCount } from "../domain/chat/inbox.ts";
import { teamMessages } from "../domain/chat/team-messages.ts";
import { listDecisions, recordDecision } from "../domain/continuity/decisions.service.ts";
import { getPattern, listPatterns, registerPattern } from "../domain/continuity/patterns.service.ts";
import { latestCheckpoint, recordCheckpoint } from "../domain/continuity/checkpoints.service.ts";
import { briefing } from "../domain/continuity/briefing.service.ts";
import { runHook } from "../domain/continuity/hooks.service.ts";
import { postStateUpdate, teamState } from "../domain/knowledge/state.service.ts";
import { appendWisdom, listWisdom, refuseWisdomChange } from "../domain/knowledge/wisdom.service.ts";
import { listExplorations, lookupExploration, recordExploration } from "../domain/knowledge/exploration.service.ts";
import type { ServiceContext } from "./context.ts";

export const chatServices = ({ deps }: ServiceContext) =>
  ({
    send: (a, i) => sendMessage(deps, a, i),
    broadcast: (a, i) => broadcast(deps, a, i),
    reply: (a, i) => reply(deps, a, i),
    /** Waits for the reply or the timeout; `signal` ends the wait early when the caller goes away. */
    ask: (a, i, signal) => ask(deps, a, i, signal),
    inbox: (a, i) => checkInbox(deps, a, i),
    unread: (a, i) => unreadCount(deps, a, i),
    /** The whole team's conversation, for operators; marks nothing read. */
    messages: (a, i) => teamMessages(deps, a, i),
  }) satisfies Operations<"chat">;

export const continuityServices = ({ deps }: ServiceContext) =>
  ({
    recordDecision: (a, i) => recordDecision(deps, a, i),
    listDecisions: (_, i) => listDecisions(deps, i),
    registerPattern: (a, i) => registerPattern(deps, a, i),
    getPattern: (_, i) => getPattern(deps, i),
    listPatterns: (_, i) => listPatterns(deps, i),
    recordCheckpoint: (a, i) => recordCheckpoint(deps, a, i),
    latestCheckpoint: (a, i) => latestCheckpoint(deps, a, i),
    briefing: (a, i) => briefing(deps, a, i),
    hook: (a, i) => runHook(deps, a, i),
  }) satisfies Operations<"continuity">;

export const knowledgeServices = ({ deps }: ServiceContext) =>
  ({
    stateUpdate: (a, i) => postStateUpdate(deps, a, i),
    teamState: (_, i) => teamState(deps, i),
    appendWisdom: (a, i) => appendWisdom(deps, a, i),
    listWisdom: (_, i) => listWisdom(deps, i),
    editWisdom: (_, i) => refuseWisdomChange(deps, { team: i.team, id: i.id, change: "edit" }),
    deleteWisdom: (_, i) => refuseWisdomChange(deps, { ...i, change: "delete" }),
    lookupExploration: (_, i) => lookupExploration(deps, i),
    recordExploration: (a, i) => recordExploration(deps, a, i),
    listExplorations: (_, i) => listExplorations(deps, i),
  }) satisfies Operations<"knowledge">;
