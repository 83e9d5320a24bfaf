/**
 * Queries and changes of the inbox page (keys in ./keys.ts). The dashboard is the `operator`
 * principal: its inbox is the operator's, and checking it marks what it returned read (as the
 * CLI's `team-inbox` does). The team's conversation is a plain read that marks nothing.
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { apiGet, apiSend } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type SessionSummary = { name: string; status: string; principal: string | null; pendingApprovals: number; stalled: boolean };
export type InboxItem = { id: number; from: string; kind: string; text: string; replyTo: number | null; sentAt: string; unread: boolean; archived: boolean };
export type TeamMessage = {
  id: number;
  from: string;
  to: string;
  kind: string;
  text: string;
  replyTo: number | null;
  sentAt: string;
  readAt: string | null;
  archived: boolean;
  replyId: number | null;
};
export type MessageFilters = { member?: string; kind?: string };

/** Kinds a person can answer; the hub's own notices (notify, turn, contract, system) cannot be replied to. */
export const ANSWERABLE = new Set(["dm", "broadcast", "ask", "reply"]);

export const useTeamSessions = (team: string) =>
  useQuery({ queryKey: [...keys.sessions(team), "for-roster"], queryFn: () => apiGet<SessionSummary[]>("/api/sessions", { team, limit: 500 }) });

export const useOperatorInbox = (team: string) =>
  useInfiniteQuery({
    queryKey: keys.inbox(team),
    queryFn: ({ pageParam }) =>
      apiSend<{ member: string; messages: InboxItem[]; unreadLeft: number; nextBefore: number | null }>("POST", "/api/chat/inbox", {
        team,
        limit: 50,
        ...(pageParam ? { before: pageParam } : {}),
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });

export const useTeamMessages = (team: string, filters: MessageFilters) =>
  useInfiniteQuery({
    queryKey: [...keys.messages(team), filters],
    queryFn: ({ pageParam }) =>
      apiGet<{ messages: TeamMessage[]; nextBefore: number | null }>("/api/chat/messages", { team, limit: 100, before: pageParam, ...filters }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    placeholderData: keepPreviousData,
  });

export const useAwaitingReply = (team: string) =>
  useQuery({
    queryKey: [...keys.messages(team), "awaiting-reply"],
    queryFn: () => apiGet<{ messages: TeamMessage[]; nextBefore: number | null }>("/api/chat/messages", { team, awaitingReply: true, limit: 100 }),
  });

/** As the operator. Each call site gets its own mutation state, so every reply box shows its own error. */
export const useSendMessage = (team: string) =>
  useMutation({ mutationFn: (b: { to: string; message: string }) => apiSend("POST", "/api/chat/send", { team, ...b }) });
export const useBroadcast = (team: string) => useMutation({ mutationFn: (b: { message: string }) => apiSend("POST", "/api/chat/broadcast", { team, ...b }) });
export const useReply = (team: string) =>
  useMutation({ mutationFn: (b: { messageId: number; message: string }) => apiSend("POST", "/api/chat/reply", { team, ...b }) });
