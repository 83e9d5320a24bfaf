import { tool } from "../tool.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { ARTIFACT_ID, REF, TEAM } from "./common.ts";

export const lineageTools = [
  tool({
    name: "artifact_lineage",
    title: "Artifact lineage",
    description: "The provenance graph around an artifact version: upstream (what it was made from) or downstream (what was made from it), as nodes and edges.",
    endpoint: api.lineage.graph,
    describe: { team: TEAM, ref: REF, direction: "'upstream' (default) or 'downstream'.", depth: "Hops to follow, 1–100 (default 25)." },
  }),
  tool({
    name: "artifact_impact",
    title: "Impact of changing an artifact",
    description:
      "What a change to this artifact reaches: every artifact whose current version descends from any of its versions, and the contracts relying on them.",
    endpoint: api.lineage.impact,
    describe: { team: TEAM, id: ARTIFACT_ID },
  }),
  tool({
    name: "artifact_stale",
    title: "Stale artifacts",
    description:
      "Artifacts whose current version was built on a version that is no longer current, directly or through a stale input, or that were invalidated. Each reason names its root (the version that was superseded, rolled back or invalidated; kind and current say what happened) and the path from the stale version up to it: steps {version, input, via}, via 'derivedFrom' for a named input or 'contract' (with contractId) for a contract's pinned input.",
    endpoint: api.lineage.stale,
    describe: { team: TEAM },
  }),
  tool({
    name: "team_audit",
    title: "Audit trail",
    description: "The full provenance trail of a version and everything upstream of it: publisher, session, contract, inputs, time, readers.",
    endpoint: api.lineage.audit,
    describe: { team: TEAM, ref: REF },
  }),
];
