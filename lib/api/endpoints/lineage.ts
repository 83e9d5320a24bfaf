import { endpoint, Unchecked } from "../endpoint.ts";
import { AuditInput, ImpactInput, LineageInput, StaleInput } from "../lineage.ts";

export const lineage = {
  audit: endpoint({ method: "GET", path: "/audit", input: AuditInput, output: Unchecked }),
  impact: endpoint({ method: "GET", path: "/impact", input: ImpactInput, output: Unchecked }),
  graph: endpoint({ method: "GET", path: "/lineage", input: LineageInput, output: Unchecked }),
  stale: endpoint({ method: "GET", path: "/stale", input: StaleInput, output: Unchecked }),
};
