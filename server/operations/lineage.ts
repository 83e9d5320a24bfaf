/** Lineage: the provenance graph of artifact versions, what a change reaches, what is stale, and the audit trail (docs/domain.md#lineage). */
import { audit, impact, lineage as lineageGraph, staleArtifacts } from "../domain/lineage/lineage.service.ts";
import { area } from "./define.ts";
import { ARTIFACT_ID, REF, TEAM } from "./fields.ts";

export const lineage = area("lineage", {
  graph: {
    may: "member",
    serve: ({ deps }, _, i) => lineageGraph(deps, i),
    mcp: {
      name: "artifact_lineage",
      title: "Artifact lineage",
      description:
        "The provenance graph around an artifact version: upstream (what it was made from) or downstream (what was made from it), as nodes and edges.",
      describe: { team: TEAM, ref: REF, direction: "'upstream' (default) or 'downstream'.", depth: "Hops to follow, 1–100 (default 25)." },
    },
  },
  impact: {
    may: "member",
    serve: ({ deps }, _, i) => impact(deps, i),
    mcp: {
      name: "artifact_impact",
      title: "Impact of changing an artifact",
      description:
        "What a change to this artifact reaches: every artifact whose current version descends from any of its versions, and the contracts relying on them.",
      describe: { team: TEAM, id: ARTIFACT_ID },
    },
  },
  stale: {
    may: "member",
    serve: ({ deps }, _, i) => staleArtifacts(deps, i),
    mcp: {
      name: "artifact_stale",
      title: "Stale artifacts",
      description:
        "Artifacts whose current version was built on a version that is no longer current, directly or through a stale input, or that were invalidated. Each reason names its root (the version that was superseded, rolled back or invalidated; kind and current say what happened) and the path from the stale version up to it: steps {version, input, via}, via 'derivedFrom' for a named input or 'contract' (with contractId) for a contract's pinned input.",
      describe: { team: TEAM },
    },
  },
  audit: {
    may: "member",
    serve: ({ deps }, _, i) => audit(deps, i),
    mcp: {
      name: "team_audit",
      title: "Audit trail",
      description: "The full provenance trail of a version and everything upstream of it: publisher, session, contract, inputs, time, readers.",
      describe: { team: TEAM, ref: REF },
    },
  },
});
