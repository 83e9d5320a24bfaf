import { endpoint, Unchecked } from "../endpoint.ts";
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
} from "../continuity.ts";

export const continuity = {
  briefing: endpoint({ method: "GET", path: "/continuity/briefing", input: BriefingInput, output: Unchecked }),
  // The same read for callers whose git facts (a list of files) do not fit a query string.
  briefingPost: endpoint({ method: "POST", path: "/continuity/briefing", input: BriefingInput, output: Unchecked }),
  recordCheckpoint: endpoint({ method: "POST", path: "/continuity/checkpoints", input: RecordCheckpointInput, output: Unchecked, status: 201 }),
  latestCheckpoint: endpoint({ method: "GET", path: "/continuity/checkpoints/latest", input: LatestCheckpointInput, output: Unchecked }),
  listDecisions: endpoint({ method: "GET", path: "/continuity/decisions", input: ListDecisionsInput, output: Unchecked }),
  recordDecision: endpoint({ method: "POST", path: "/continuity/decisions", input: RecordDecisionInput, output: Unchecked, status: 201 }),
  hook: endpoint({ method: "POST", path: "/continuity/hooks/:event", input: HookInput, output: Unchecked }),
  listPatterns: endpoint({ method: "GET", path: "/continuity/patterns", input: ListPatternsInput, output: Unchecked }),
  registerPattern: endpoint({ method: "POST", path: "/continuity/patterns", input: RegisterPatternInput, output: Unchecked }),
  getPattern: endpoint({ method: "GET", path: "/continuity/patterns/:name", input: PatternRefInput, output: Unchecked }),
};
