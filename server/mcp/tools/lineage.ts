import { AuditInput, ImpactInput, LineageInput, StaleInput } from "../../../lib/api/lineage.ts";
import { tool } from "../tool.ts";
import { ARTIFACT_ID, REF, TEAM } from "./common.ts";

export const lineageTools = [
  tool({
    name: "artifact_lineage",
    title: "Artifact lineage",
    description: "The provenance graph around an artifact version: upstream (what it was made from) or downstream (what was made from it), as nodes and edges.",
    schema: LineageInput,
    describe: { team: TEAM, ref: REF, direction: "'upstream' (default) or 'downstream'.", depth: "Hops to follow, 1–100 (default 25)." },
    kind: "read",
    run: (s, actor, input) => s.lineage.graph(actor, input),
  }),
  tool({
    name: "artifact_impact",
    title: "Impact of changing an artifact",
    description:
      "What a change to this artifact reaches: every artifact whose current version descends from any of its versions, and the contracts relying on them.",
    schema: ImpactInput,
    describe: { team: TEAM, id: ARTIFACT_ID },
    kind: "read",
    run: (s, actor, input) => s.lineage.impact(actor, input),
  }),
  tool({
    name: "artifact_stale",
    title: "Stale artifacts",
    description:
      "Artifacts whose current version was built on a version that is no longer current, directly or through a stale input, or that were invalidated. Each reason names its root (the version that was superseded, rolled back or invalidated; kind and current say what happened) and the path from the stale version up to it: steps {version, input, via}, via 'derivedFrom' for a named input or 'contract' (with contractId) for a contract's pinned input.",
    schema: StaleInput,
    describe: { team: TEAM },
    kind: "read",
    run: (s, actor, input) => s.lineage.stale(actor, input),
  }),
  tool({
    name: "team_audit",
    title: "Audit trail",
    description: "The full provenance trail of a version and everything upstream of it: publisher, session, contract, inputs, time, readers.",
    schema: AuditInput,
    describe: { team: TEAM, ref: REF },
    kind: "read",
    run: (s, actor, input) => s.lineage.audit(actor, input),
  }),
];
