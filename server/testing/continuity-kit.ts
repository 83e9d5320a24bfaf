/**
 * Shared by the continuity tests: each operation called the way an adapter calls it, as a given
 * principal, with its input parsed by the lib/api schema (bad input is the same invalid_input
 * error, as a rejected promise), plus the contract and message moves a briefing reports.
 */
import {
  BriefingInput,
  HookInput,
  LatestCheckpointInput,
  ListDecisionsInput,
  ListPatternsInput,
  PatternRefInput,
  RecordCheckpointInput,
  RecordDecisionInput,
  RegisterPatternInput,
} from "../../lib/api/continuity.ts";
import { ContractRefInput, ReassignContractInput } from "../../lib/api/contracts.ts";
import { deliver } from "../domain/chat/messages.ts";
import { briefing } from "../domain/continuity/briefing.service.ts";
import { latestCheckpoint, recordCheckpoint } from "../domain/continuity/checkpoints.service.ts";
import { listDecisions, recordDecision } from "../domain/continuity/decisions.service.ts";
import { runHook } from "../domain/continuity/hooks.service.ts";
import { getPattern, listPatterns, registerPattern } from "../domain/continuity/patterns.service.ts";
import { reassignContract, startContract } from "../domain/contracts/contracts.service.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { ensureTeam } from "../domain/teams/teams.service.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import type { TempHub } from "./temp-hub.ts";

type Raw = Record<string, unknown>;

export const member = (name: string): Principal => ({ name, kind: "member" });

export function continuityKit(hub: TempHub) {
  return {
    decide: async (input: Raw, by: Principal = OPERATOR) =>
      recordDecision(hub, by, parseOrThrow(RecordDecisionInput, { title: "A decision", decision: "Do it this way", ...input })),
    decisions: async (input: Raw = {}) => listDecisions(hub, parseOrThrow(ListDecisionsInput, input)),
    register: async (input: Raw, by: Principal = OPERATOR) =>
      registerPattern(hub, by, parseOrThrow(RegisterPatternInput, { description: "How we do it", ...input })),
    pattern: async (name: unknown) => getPattern(hub, parseOrThrow(PatternRefInput, { name })),
    patterns: async (input: Raw = {}) => listPatterns(hub, parseOrThrow(ListPatternsInput, input)),
    checkpoint: async (by: Principal, input: Raw = {}) => recordCheckpoint(hub, by, parseOrThrow(RecordCheckpointInput, { kind: "stop", ...input })),
    latest: async (by: Principal, input: Raw = {}) => (await latestCheckpoint(hub, by, parseOrThrow(LatestCheckpointInput, input))).checkpoint,
    brief: async (by: Principal, input: Raw = {}) => briefing(hub, by, parseOrThrow(BriefingInput, input)),
    hook: async (by: Principal, input: Raw) => runHook(hub, by, parseOrThrow(HookInput, input)),
    start: async (id: string, by: Principal = OPERATOR) => startContract(hub, by, parseOrThrow(ContractRefInput, { id })),
    reassign: async (id: string, assignee: string) => reassignContract(hub, OPERATOR, parseOrThrow(ReassignContractInput, { id, assignee })),
    send: async (from: string, to: string, text: string) =>
      hub.db.write("test.message", from, async (tx) => (await ensureTeam(tx, "default"), deliver(tx, { team: "default", from, to: [to], kind: "dm", text }))),
  };
}

export type ContinuityKit = ReturnType<typeof continuityKit>;
