/**
 * Shared by the knowledge tests: each operation called the way an adapter calls it, as a given principal, with its
 * input parsed by the lib/api schema (bad input is the same invalid_input error, as a rejected promise).
 */
import {
  AppendWisdomInput,
  ExplorationListInput,
  ExplorationLookupInput,
  ExplorationRecordInput,
  ListWisdomInput,
  StateUpdateInput,
  TeamStateInput,
  WisdomRefInput,
} from "../../lib/api/knowledge.ts";
import type { Principal } from "../domain/principal.ts";
import { listExplorations, lookupExploration, recordExploration } from "../domain/knowledge/exploration.service.ts";
import { postStateUpdate, teamState } from "../domain/knowledge/state.service.ts";
import { appendWisdom, listWisdom, refuseWisdomChange } from "../domain/knowledge/wisdom.service.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import type { TempHub } from "./temp-hub.ts";

type Raw = Record<string, unknown>;

export function knowledgeKit(hub: TempHub) {
  return {
    post: async (by: Principal, input: Raw = {}) =>
      postStateUpdate(hub, by, parseOrThrow(StateUpdateInput, { status: "completed", task: "Did the thing", verification: "tested", ...input })),
    state: async (input: Raw = {}) => teamState(hub, parseOrThrow(TeamStateInput, input)),
    append: async (by: Principal, input: Raw) =>
      appendWisdom(hub, by, parseOrThrow(AppendWisdomInput, { kind: "learning", title: "A learning", body: "What we learnt", ...input })),
    wisdom: async (input: Raw = {}) => listWisdom(hub, parseOrThrow(ListWisdomInput, input)),
    change: async (id: number, change: "edit" | "delete") => refuseWisdomChange(hub, { ...parseOrThrow(WisdomRefInput, { id }), change }),
    lookup: async (angle: unknown) => lookupExploration(hub, parseOrThrow(ExplorationLookupInput, { angle })),
    record: async (by: Principal, input: Raw) => recordExploration(hub, by, parseOrThrow(ExplorationRecordInput, { result: "Found it", ...input })),
    explorations: async (input: Raw = {}) => listExplorations(hub, parseOrThrow(ExplorationListInput, input)),
  };
}

export type KnowledgeKit = ReturnType<typeof knowledgeKit>;
