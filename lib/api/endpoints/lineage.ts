import { endpoint } from "../endpoint.ts";
import { Audit, AuditInput, Impact, ImpactInput, LineageGraph, LineageInput, StaleInput, StaleList } from "../lineage.ts";

export const lineage = {
  audit: endpoint({ method: "GET", path: "/audit", input: AuditInput, output: Audit }),
  impact: endpoint({ method: "GET", path: "/impact", input: ImpactInput, output: Impact }),
  graph: endpoint({ method: "GET", path: "/lineage", input: LineageInput, output: LineageGraph }),
  stale: endpoint({ method: "GET", path: "/stale", input: StaleInput, output: StaleList }),
};
