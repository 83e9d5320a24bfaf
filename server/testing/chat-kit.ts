/**
 * For the chat tests: each operation called the way an adapter calls it, as a given principal,
 * with its input parsed by the lib/api schema (bad input becomes the same rejected invalid_input).
 */
import { AskInput, BroadcastInput, CheckInboxInput, ReplyInput, SendMessageInput } from "../../lib/api/chat.ts";
import { UpsertMemberInput } from "../../lib/api/roster.ts";
import { ask } from "../domain/chat/ask.ts";
import { checkInbox } from "../domain/chat/inbox.ts";
import { reply } from "../domain/chat/reply.ts";
import { broadcast, sendMessage } from "../domain/chat/send.ts";
import type { DomainDeps } from "../domain/deps.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { upsertMember } from "../domain/roster/roster.service.ts";
import { updateTeamSettings } from "../domain/teams/settings.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import type { TeamSettings } from "../../lib/api/team-settings.ts";

type Raw = Record<string, unknown>;

export const member = (name: string): Principal => ({ name, kind: "member" });

/** `as(who)` acts as that member, or as the operator for "operator". */
export function chatKit(deps: DomainDeps) {
  const who = (name: string) => (name === OPERATOR.name ? OPERATOR : member(name));
  return {
    join: async (...names: string[]) => {
      for (const name of names) await upsertMember(deps, OPERATOR, parseOrThrow(UpsertMemberInput, { name }));
    },
    settings: async (changes: Partial<TeamSettings>) => updateTeamSettings(deps, OPERATOR, { team: "default", ...changes }),
    send: async (from: string, to: string, message: string, extra: Raw = {}) =>
      sendMessage(deps, who(from), parseOrThrow(SendMessageInput, { to, message, ...extra })),
    broadcast: async (from: string, message: string, team?: string) => broadcast(deps, who(from), parseOrThrow(BroadcastInput, { message, team })),
    reply: async (from: string, messageId: number, message: string) => reply(deps, who(from), parseOrThrow(ReplyInput, { messageId, message })),
    ask: async (from: string, to: string, question: string, extra: Raw = {}, signal?: AbortSignal) =>
      ask(deps, who(from), parseOrThrow(AskInput, { to, question, ...extra }), signal),
    inbox: async (of: string, options: Raw = {}) => checkInbox(deps, who(of), parseOrThrow(CheckInboxInput, options)),
  };
}
