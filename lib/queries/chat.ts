/**
 * Queries and changes of the inbox page (keys in ./keys.ts). The dashboard is the `operator`
 * principal: its inbox is the operator's, and checking it marks what it returned read (as the
 * CLI's `team-inbox` does). The team's conversation is a plain read that marks nothing.
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import type { MessageKind } from "../api/chat.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type MessageFilters = { member?: string; kind?: MessageKind };

/** Kinds a person can answer; the hub's own notices (notify, turn, contract, system) cannot be replied to. */
export const ANSWERABLE = new Set(["dm", "broadcast", "ask", "reply"]);

const INBOX = { limit: 50 };

export const useOperatorInbox = (team: string) =>
  useInfiniteQuery({
    queryKey: keys.inbox.pages(team, INBOX),
    queryFn: ({ pageParam }) => apiCall(api.chat.inbox, { team, ...INBOX, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });

export function useTeamMessages(team: string, filters: MessageFilters) {
  const params = { ...filters, limit: 100 };
  return useInfiniteQuery({
    queryKey: keys.messages.pages(team, params),
    queryFn: ({ pageParam }) => apiCall(api.chat.messages, { team, ...params, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    placeholderData: keepPreviousData,
  });
}

const AWAITING_REPLY = { awaitingReply: true, limit: 100 };

export const useAwaitingReply = (team: string) =>
  useQuery({
    queryKey: keys.messages.list(team, AWAITING_REPLY),
    queryFn: () => apiCall(api.chat.messages, { team, ...AWAITING_REPLY }),
  });

/** As the operator. Each call site gets its own mutation state, so every reply box shows its own error. */
export const useSendMessage = (team: string) => useMutation({ mutationFn: (b: { to: string; message: string }) => apiCall(api.chat.send, { team, ...b }) });
export const useBroadcast = (team: string) => useMutation({ mutationFn: (b: { message: string }) => apiCall(api.chat.broadcast, { team, ...b }) });
export const useReply = (team: string) => useMutation({ mutationFn: (b: { messageId: number; message: string }) => apiCall(api.chat.reply, { team, ...b }) });

/** Messages waiting unread in the dashboard principal's own inbox: the nav's badge. */
export const useUnread = (team: string) => useQuery({ queryKey: [...keys.inbox.all(team), "unread"], queryFn: () => apiCall(api.chat.unread, { team }) });
