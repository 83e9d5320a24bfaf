/** Artifacts: the immutable, versioned outputs members publish and read, and the types a team accepts (docs/domain.md#artifacts). */
import { artifactHistory, artifactReaders, getArtifact, listArtifacts, publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { listTypes, registerType } from "../domain/artifacts/type-registry.ts";
import { area } from "./define.ts";
import { ADMINISTRATION, ARTIFACT_ID, CURSOR, LIMIT, TEAM } from "./fields.ts";

export const artifacts = area("artifacts", {
  publish: {
    may: "member",
    serve: ({ deps }, a, i) => publishArtifact(deps, a, i),
    mcp: {
      name: "artifact_publish",
      title: "Publish an artifact version",
      description:
        "Publish structured output as a new immutable version of an artifact (versions are numbered 1, 2, 3…). You are recorded as the publisher. " +
        "Well-known types are validated: api-contract {endpoints:[{method, path, request?, response?}]}, schema-change {models:[{name, action?, fields}]}, " +
        "component-spec {componentName, props?, states?, events?}, test-results {total, passed, failed, skipped?, failures?:[{name, message?}]} with passed+failed+skipped ≤ total, " +
        "file-manifest {files:[{path, action, description?}]}, config-change {changes:[{key, oldValue?, newValue}]}, custom (any JSON). " +
        "Publishing may complete contracts waiting for this output; the result lists those changes in `effects`.",
      describe: {
        team: TEAM,
        id: ARTIFACT_ID,
        type: "Artifact type: one of the well-known types above, 'custom', or a type registered for the team. Cannot change after the first version.",
        name: "Human-readable name (defaults to the id).",
        data: "The version's content as JSON (at most 1 MiB), shaped as its type requires.",
        summary: "One line about what changed in this version.",
        tags: "Tags; replace the artifact's tags when given.",
        derivedFrom: "Input versions this was made from, as 'id@vN' (or 'id' for the current version, stored pinned). Builds the lineage graph.",
        contractId: "The contract this output is published under; it then counts only for that contract.",
        expectedVersion: "Optimistic concurrency: refuse (conflict) unless the current latest version is this number; 0 means the artifact must not exist yet.",
      },
    },
  },
  get: {
    may: "member",
    serve: ({ deps }, a, i) => getArtifact(deps, a, i),
    mcp: {
      name: "artifact_get",
      title: "Read an artifact version",
      description:
        "Read an artifact's current version (or a given one) with its data. The read is recorded under your name, so others can see you consumed it.",
      describe: { team: TEAM, id: ARTIFACT_ID, version: "A specific version number; omit for the current version." },
    },
  },
  list: {
    may: "member",
    serve: ({ deps }, _, i) => listArtifacts(deps, i),
    mcp: {
      name: "artifact_list",
      title: "List artifacts",
      description: "List the team's artifacts with their current version and publisher, optionally filtered.",
      describe: {
        team: TEAM,
        type: "Only this artifact type.",
        publisher: "Only artifacts whose current version this member published.",
        tag: "Only artifacts with this tag.",
        status: "Only artifacts whose latest version is 'active' or 'rolled_back'.",
        archived: "Include artifacts archived by a team reset.",
        stale: "Only artifacts built on inputs that are no longer current.",
        limit: LIMIT,
        cursor: CURSOR,
      },
    },
  },
  history: {
    may: "member",
    serve: ({ deps }, _, i) => artifactHistory(deps, i),
    mcp: {
      name: "artifact_history",
      title: "Artifact version history",
      description: "Every version of an artifact with publisher, status, inputs and summary (without data unless includeData).",
      describe: { team: TEAM, id: ARTIFACT_ID, includeData: "Include each version's data." },
    },
  },
  readers: {
    may: "member",
    serve: ({ deps }, _, i) => artifactReaders(deps, i),
    mcp: {
      name: "artifact_readers",
      title: "Who read an artifact",
      description: "Who read which versions of an artifact, and when.",
      describe: { team: TEAM, id: ARTIFACT_ID },
    },
  },
  types: {
    may: "member",
    serve: ({ deps }, _, i) => listTypes(deps, i),
    mcp: {
      name: "artifact_types",
      title: "Artifact types",
      description: "The artifact types this team accepts, each with the JSON Schema its data must follow.",
      describe: { team: TEAM },
    },
  },
  registerType: {
    may: "member",
    serve: ({ deps }, a, i) => registerType(deps, a, i),
    mcp: { none: `${ADMINISTRATION}: a team's artifact types are set up before agents publish them` },
  },
});
