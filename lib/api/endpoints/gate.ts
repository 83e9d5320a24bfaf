import { endpoint } from "../endpoint.ts";
import { GateReport, PhaseGateInput, ResetSummary, TeamResetInput } from "../gate.ts";

export const gate = {
  check: endpoint({ method: "POST", path: "/phase-gate", input: PhaseGateInput, output: GateReport }),
  reset: endpoint({ method: "POST", path: "/teams/:team/reset", input: TeamResetInput, output: ResetSummary, effect: "destructive" }),
};
