import { endpoint, Unchecked } from "../endpoint.ts";
import { PhaseGateInput, TeamResetInput } from "../gate.ts";

export const gate = {
  check: endpoint({ method: "POST", path: "/phase-gate", input: PhaseGateInput, output: Unchecked }),
  reset: endpoint({ method: "POST", path: "/teams/:team/reset", input: TeamResetInput, output: Unchecked }),
};
