import { endpoint, Unchecked } from "../endpoint.ts";
import { CreatePipelineInput, DryRunInput, PipelineLogInput, PipelineRefInput, ValidatePipelineInput } from "../pipelines.ts";
import { TeamRefInput } from "../teams.ts";

export const pipelines = {
  list: endpoint({ method: "GET", path: "/pipelines", input: TeamRefInput, output: Unchecked }),
  create: endpoint({ method: "POST", path: "/pipelines", input: CreatePipelineInput, output: Unchecked, status: 201 }),
  delete: endpoint({ method: "DELETE", path: "/pipelines/:id", input: PipelineRefInput, output: Unchecked }),
  get: endpoint({ method: "GET", path: "/pipelines/:id", input: PipelineLogInput, output: Unchecked }),
  pause: endpoint({ method: "POST", path: "/pipelines/:id/pause", input: PipelineRefInput, output: Unchecked }),
  resume: endpoint({ method: "POST", path: "/pipelines/:id/resume", input: PipelineRefInput, output: Unchecked }),
  dryRun: endpoint({ method: "POST", path: "/pipelines/dry-run", input: DryRunInput, output: Unchecked }),
  validate: endpoint({ method: "POST", path: "/pipelines/validate", input: ValidatePipelineInput, output: Unchecked }),
};
