import { endpoint } from "../endpoint.ts";
import {
  AppendWisdomInput,
  ExplorationListInput,
  ExplorationLookup,
  ExplorationLookupInput,
  ExplorationPage,
  ExplorationRecord,
  ExplorationRecordInput,
  ListWisdomInput,
  StateUpdateInput,
  StateUpdateView,
  TeamState,
  TeamStateInput,
  WisdomPage,
  WisdomEditInput,
  WisdomRefInput,
  WisdomView,
} from "../knowledge.ts";

export const knowledge = {
  stateUpdate: endpoint({ method: "POST", path: "/knowledge/state", input: StateUpdateInput, output: StateUpdateView, status: 201 }),
  teamState: endpoint({ method: "GET", path: "/knowledge/state", input: TeamStateInput, output: TeamState }),
  appendWisdom: endpoint({ method: "POST", path: "/knowledge/wisdom", input: AppendWisdomInput, output: WisdomView, status: 201 }),
  listWisdom: endpoint({ method: "GET", path: "/knowledge/wisdom", input: ListWisdomInput, output: WisdomPage }),
  // Wisdom is append-only: these exist to answer an edit or a delete with the rule, not a bare 405.
  editWisdom: endpoint({ method: "PATCH", path: "/knowledge/wisdom/:id", input: WisdomEditInput, output: WisdomView }),
  deleteWisdom: endpoint({ method: "DELETE", path: "/knowledge/wisdom/:id", input: WisdomRefInput, output: WisdomView }),
  listExplorations: endpoint({ method: "GET", path: "/knowledge/explorations", input: ExplorationListInput, output: ExplorationPage }),
  recordExploration: endpoint({ method: "POST", path: "/knowledge/explorations", input: ExplorationRecordInput, output: ExplorationRecord }),
  lookupExploration: endpoint({ method: "GET", path: "/knowledge/explorations/:angle", input: ExplorationLookupInput, output: ExplorationLookup }),
};
