/**
 * Queries and changes of the sessions pages (keys in ./keys.ts). Every change invalidates its
 * team at once for immediate feedback; the /ws events that follow keep the pages current.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "../browser-api.ts";
import type { WireTranscriptEntry } from "../ws.ts";
import { keys } from "./keys.ts";

export type SessionItem = {
  name: string;
  team: string;
  kind: "session" | "delegate" | "member";
  status: string;
  claudeSessionId: string | null;
  model: string | null;
  workDir: string;
  preset: string;
  allowedTools: string[];
  agent: string | null;
  safety: { enabled: boolean; maxCostUsd: number; maxTurns: number; timeoutMs: number; protectedPaths: string[]; approvalTimeoutMs: number };
  principal: string | null;
  pid: number | null;
  costUsd: number;
  turns: number;
  interactions: number;
  lastError: string | null;
  exitReason: string | null;
  /** What is wrong with it, in words ("cost limit: $0.40 spent of $0.05", "last turn failed: …"); null when nothing is. */
  problem: string | null;
  stalled: boolean;
  parent: string | null;
  /** Whether the last process ran in the OS sandbox; null until it first launched. */
  sandbox: "bubblewrap" | "none" | null;
  createdAt: string;
  updatedAt: string;
  queued: number;
  pendingApprovals: number;
  /** Place in the admission queue while `queued` (1 starts next). */
  queuePosition: number | null;
};

export type ApprovalItem = {
  id: number;
  session: string;
  requestId: string;
  toolName: string;
  input: Record<string, unknown>;
  reason: string;
  status: string;
  createdAt: string;
  expiresAt: string;
};

export type InteractionItem = {
  id: number;
  n: number;
  prompt: string;
  response: string | null;
  status: string;
  isError: boolean;
  resultSubtype: string | null;
  /** Why it did not complete (status error or limit). */
  error: string | null;
  costUsd: number;
  turns: number;
  durationMs: number | null;
  toolsUsed: string[];
  permissionDenials: Array<{ tool_name: string; tool_input?: unknown }>;
  startedAt: string;
  endedAt: string | null;
};

export type SessionDetail = SessionItem & {
  running: InteractionItem | null;
  approvals: ApprovalItem[];
  violations: Array<{ id: number; kind: string; detail: string; at: string }>;
};

export type TranscriptEntry = WireTranscriptEntry["entry"];

const path = (name: string, op = "") => `/api/sessions/${encodeURIComponent(name)}${op ? `/${op}` : ""}`;

export const useSessions = (team: string) =>
  useQuery({ queryKey: keys.sessions(team), queryFn: () => apiGet<SessionItem[]>("/api/sessions", { team, limit: 500 }) });

export const useSession = (team: string, name: string) =>
  useQuery({ queryKey: keys.session(team, name), queryFn: () => apiGet<SessionDetail>(path(name)), retry: false });

export const useSessionHistory = (team: string, name: string) =>
  useQuery({
    queryKey: [...keys.session(team, name), "history"],
    queryFn: () => apiGet<{ interactions: InteractionItem[] }>(path(name, "history"), { limit: 500 }),
  });

export const transcriptPage = (name: string, after: number, limit: number) =>
  apiGet<{ entries: TranscriptEntry[] }>(path(name, "transcript"), { after: after || undefined, limit });

function useTeamMutation<I, O>(team: string, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }) });
}

export type SpawnBody = Record<string, unknown> & { name: string };

/** A plain session (POST /api/sessions) or a team member (POST /api/team-spawn). */
export const useSpawn = (team: string) =>
  useTeamMutation(team, ({ member, body }: { member: boolean; body: SpawnBody }) =>
    apiSend<SessionItem>("POST", member ? "/api/team-spawn" : "/api/sessions", { ...body, team }),
  );

/** Lifecycle without a body; stop and kill return at once (the page follows the exit live). */
export type Lifecycle = "pause" | "resume" | "stop" | "kill";
export const useLifecycle = (team: string, name: string) =>
  useTeamMutation(team, (op: Lifecycle) => apiSend<SessionItem>("POST", path(name, op), op === "stop" || op === "kill" ? { wait: false } : {}));

export const useFork = (team: string, name: string) =>
  useTeamMutation(team, (body: { newName: string; prompt?: string }) => apiSend<SessionItem>("POST", path(name, "fork"), body));

export const useDeleteSession = (team: string, name: string) => useTeamMutation(team, () => apiSend<{ deleted: string }>("DELETE", path(name)));

export const useSend = (team: string, name: string) =>
  useTeamMutation(team, (message: string) => apiSend<{ interaction: InteractionItem }>("POST", path(name, "send"), { message, wait: false }));

export const useDecide = (team: string, name: string) =>
  useTeamMutation(team, (body: { approvalId: number; decision: "allow" | "deny"; note?: string }) =>
    apiSend<ApprovalItem>("POST", path(name, `approvals/${body.approvalId}`), { decision: body.decision, ...(body.note ? { note: body.note } : {}) }),
  );
