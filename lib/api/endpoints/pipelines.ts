import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import {
  CreatePipelineInput,
  DryRunInput,
  DryRunResult,
  MatchingEvents,
  MatchingEventsInput,
  PipelineDeleted,
  PipelineDetail,
  PipelineLogInput,
  PipelineRefInput,
  PipelineValidation,
  PipelineView,
  UpdatePipelineInput,
  ValidatePipelineInput,
} from "../pipelines.ts";
import { TeamRefInput } from "../teams.ts";

export const pipelines = {
  list: endpoint({ method: "GET", path: "/pipelines", input: TeamRefInput, output: z.array(PipelineView) }),
  create: endpoint({ method: "POST", path: "/pipelines", input: CreatePipelineInput, output: PipelineView, status: 201 }),
  delete: endpoint({ method: "DELETE", path: "/pipelines/:id", input: PipelineRefInput, output: PipelineDeleted }),
  /** Replaces the rules (docs/domain.md#editing-a-pipeline). */
  update: endpoint({ method: "PUT", path: "/pipelines/:id", input: UpdatePipelineInput, output: PipelineView }),
  get: endpoint({ method: "GET", path: "/pipelines/:id", input: PipelineLogInput, output: PipelineDetail }),
  pause: endpoint({ method: "POST", path: "/pipelines/:id/pause", input: PipelineRefInput, output: PipelineView }),
  resume: endpoint({ method: "POST", path: "/pipelines/:id/resume", input: PipelineRefInput, output: PipelineView }),
  // A dry run writes nothing; it is a POST only because the rule travels in the body.
  dryRun: endpoint({ method: "POST", path: "/pipelines/dry-run", input: DryRunInput, output: DryRunResult, effect: "read" }),
  /** The logged events a trigger (with its filters) fires on, newest first: what the dry run offers to try a rule on. */
  matchingEvents: endpoint({ method: "POST", path: "/pipelines/dry-run/events", input: MatchingEventsInput, output: MatchingEvents, effect: "read" }),
  // Writes nothing and answers 200 with the issues, so an editor can show them while a person types.
  validate: endpoint({ method: "POST", path: "/pipelines/validate", input: ValidatePipelineInput, output: PipelineValidation, effect: "read" }),
};
