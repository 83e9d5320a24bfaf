/**
 * Shared by the continuity tests: each operation called the way an adapter calls it (./operations.ts), as a given
 * principal, with its input parsed by its endpoint's schema (bad input is the same invalid_input error, as a rejected
 * promise), plus the contract and message moves a briefing reports.
 */
import { api } from "../../lib/api/endpoints/index.ts";
import { deliver } from "../domain/chat/messages.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { ensureTeam } from "../domain/teams/teams.service.ts";
import { operations } from "./operations.ts";
import type { TempHub } from "./temp-hub.ts";

type Raw = Record<string, unknown>;

export const member = (name: string): Principal => ({ name, kind: "member" });

export function continuityKit(hub: TempHub) {
  const call = operations(hub);
  return {
    decide: async (input: Raw, by: Principal = OPERATOR) =>
      call(api.continuity.recordDecision, by, { title: "A decision", decision: "Do it this way", ...input }),
    decisions: async (input: Raw = {}) => call(api.continuity.listDecisions, OPERATOR, input),
    register: async (input: Raw, by: Principal = OPERATOR) => call(api.continuity.registerPattern, by, { description: "How we do it", ...input }),
    pattern: async (name: unknown) => call(api.continuity.getPattern, OPERATOR, { name }),
    patterns: async (input: Raw = {}) => call(api.continuity.listPatterns, OPERATOR, input),
    checkpoint: async (by: Principal, input: Raw = {}) => call(api.continuity.recordCheckpoint, by, { kind: "stop", ...input }),
    latest: async (by: Principal, input: Raw = {}) => (await call(api.continuity.latestCheckpoint, by, input)).checkpoint,
    brief: async (by: Principal, input: Raw = {}) => call(api.continuity.briefing, by, input),
    hook: async (by: Principal, input: Raw) => call(api.continuity.hook, by, input),
    start: async (id: string, by: Principal = OPERATOR) => call(api.contracts.start, by, { id }),
    reassign: async (id: string, assignee: string) => call(api.contracts.reassign, OPERATOR, { id, assignee }),
    send: async (from: string, to: string, text: string) =>
      hub.db.write("test.message", from, async (tx) => (await ensureTeam(tx, "default"), deliver(tx, { team: "default", from, to: [to], kind: "dm", text }))),
  };
}

export type ContinuityKit = ReturnType<typeof continuityKit>;
