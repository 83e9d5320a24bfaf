/**
 * For the chat tests: each operation called the way an adapter calls it (./operations.ts), as a given principal, with
 * its input parsed by its endpoint's schema (bad input becomes the same rejected invalid_input).
 */
import { api } from "../../lib/api/endpoints/index.ts";
import type { TeamSettings } from "../../lib/api/team-settings.ts";
import type { DomainDeps } from "../domain/deps.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { operations } from "./operations.ts";

type Raw = Record<string, unknown>;

export const member = (name: string): Principal => ({ name, kind: "member" });

/** `as(who)` acts as that member, or as the operator for "operator". */
export function chatKit(hub: DomainDeps & { dir: string }) {
  const call = operations(hub);
  const who = (name: string) => (name === OPERATOR.name ? OPERATOR : member(name));
  return {
    join: async (...names: string[]) => {
      for (const name of names) await call(api.roster.upsert, OPERATOR, { name });
    },
    settings: async (changes: Partial<TeamSettings>) => call(api.teams.updateSettings, OPERATOR, { team: "default", ...changes }),
    send: async (from: string, to: string, message: string, extra: Raw = {}) => call(api.chat.send, who(from), { to, message, ...extra }),
    broadcast: async (from: string, message: string, team?: string) => call(api.chat.broadcast, who(from), { message, team }),
    reply: async (from: string, messageId: number, message: string) => call(api.chat.reply, who(from), { messageId, message }),
    ask: async (from: string, to: string, question: string, extra: Raw = {}, signal?: AbortSignal) =>
      call(api.chat.ask, who(from), { to, question, ...extra }, signal),
    inbox: async (of: string, options: Raw = {}) => call(api.chat.inbox, who(of), options),
  };
}
