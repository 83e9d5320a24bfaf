/**
 * Shared by the knowledge tests: each operation called the way an adapter calls it (./operations.ts), as a given
 * principal, with its input parsed by its endpoint's schema (bad input is the same invalid_input error, as a rejected
 * promise).
 */
import { api } from "../../lib/api/endpoints/index.ts";
import type { Principal } from "../domain/principal.ts";
import { OPERATOR } from "../domain/principal.ts";
import { operations } from "./operations.ts";
import type { TempHub } from "./temp-hub.ts";

type Raw = Record<string, unknown>;

export function knowledgeKit(hub: TempHub) {
  const call = operations(hub);
  return {
    post: async (by: Principal, input: Raw = {}) =>
      call(api.knowledge.stateUpdate, by, { status: "completed", task: "Did the thing", verification: "tested", ...input }),
    state: async (input: Raw = {}) => call(api.knowledge.teamState, OPERATOR, input),
    append: async (by: Principal, input: Raw) =>
      call(api.knowledge.appendWisdom, by, { kind: "learning", title: "A learning", body: "What we learnt", ...input }),
    wisdom: async (input: Raw = {}) => call(api.knowledge.listWisdom, OPERATOR, input),
    change: async (id: number, change: "edit" | "delete") => call(change === "edit" ? api.knowledge.editWisdom : api.knowledge.deleteWisdom, OPERATOR, { id }),
    lookup: async (angle: unknown) => call(api.knowledge.lookupExploration, OPERATOR, { angle }),
    record: async (by: Principal, input: Raw) => call(api.knowledge.recordExploration, by, { result: "Found it", ...input }),
    explorations: async (input: Raw = {}) => call(api.knowledge.listExplorations, OPERATOR, input),
  };
}

export type KnowledgeKit = ReturnType<typeof knowledgeKit>;
