import { endpoint } from "../endpoint.ts";
import {
  Briefing,
  BriefingInput,
  CheckpointView,
  DecisionPage,
  DecisionView,
  HookOutcome,
  LatestCheckpoint,
  PatternPage,
  PatternRegistration,
  PatternView,
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
  briefing: endpoint({ method: "GET", path: "/continuity/briefing", input: BriefingInput, output: Briefing }),
  // The same read for callers whose git facts (a list of files) do not fit a query string.
  briefingPost: endpoint({ method: "POST", path: "/continuity/briefing", input: BriefingInput, output: Briefing }),
  recordCheckpoint: endpoint({ method: "POST", path: "/continuity/checkpoints", input: RecordCheckpointInput, output: CheckpointView, status: 201 }),
  latestCheckpoint: endpoint({ method: "GET", path: "/continuity/checkpoints/latest", input: LatestCheckpointInput, output: LatestCheckpoint }),
  listDecisions: endpoint({ method: "GET", path: "/continuity/decisions", input: ListDecisionsInput, output: DecisionPage }),
  recordDecision: endpoint({ method: "POST", path: "/continuity/decisions", input: RecordDecisionInput, output: DecisionView, status: 201 }),
  hook: endpoint({ method: "POST", path: "/continuity/hooks/:event", input: HookInput, output: HookOutcome }),
  listPatterns: endpoint({ method: "GET", path: "/continuity/patterns", input: ListPatternsInput, output: PatternPage }),
  // Insert or update, so 200 either way; the answer's `outcome` says which.
  registerPattern: endpoint({ method: "POST", path: "/continuity/patterns", input: RegisterPatternInput, output: PatternRegistration }),
  getPattern: endpoint({ method: "GET", path: "/continuity/patterns/:name", input: PatternRefInput, output: PatternView }),
};
