import { tool } from "../tool.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { ARTIFACT_ID, CURSOR, LIMIT, TEAM } from "./common.ts";

export const artifactTools = [
  tool({
    name: "artifact_publish",
    title: "Publish an artifact version",
    description:
      "Publish structured output as a new immutable version of an artifact (versions are numbered 1, 2, 3…). You are recorded as the publisher. " +
      "Well-known types are validated: api-contract {endpoints:[{method, path, request?, response?}]}, schema-change {models:[{name, action?, fields}]}, " +
      "component-spec {componentName, props?, states?, events?}, test-results {total, passed, failed, skipped?, failures?:[{name, message?}]} with passed+failed+skipped ≤ total, " +
      "file-manifest {files:[{path, action, description?}]}, config-change {changes:[{key, oldValue?, newValue}]}, custom (any JSON). " +
      "Publishing may complete contracts waiting for this output; the result lists those changes in `effects`.",
    endpoint: api.artifacts.publish,
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
  }),
  tool({
    name: "artifact_get",
    title: "Read an artifact version",
    description: "Read an artifact's current version (or a given one) with its data. The read is recorded under your name, so others can see you consumed it.",
    endpoint: api.artifacts.get,
    describe: { team: TEAM, id: ARTIFACT_ID, version: "A specific version number; omit for the current version." },
  }),
  tool({
    name: "artifact_list",
    title: "List artifacts",
    description: "List the team's artifacts with their current version and publisher, optionally filtered.",
    endpoint: api.artifacts.list,
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
  }),
  tool({
    name: "artifact_history",
    title: "Artifact version history",
    description: "Every version of an artifact with publisher, status, inputs and summary (without data unless includeData).",
    endpoint: api.artifacts.history,
    describe: { team: TEAM, id: ARTIFACT_ID, includeData: "Include each version's data." },
  }),
  tool({
    name: "artifact_readers",
    title: "Who read an artifact",
    description: "Who read which versions of an artifact, and when.",
    endpoint: api.artifacts.readers,
    describe: { team: TEAM, id: ARTIFACT_ID },
  }),
  tool({
    name: "artifact_types",
    title: "Artifact types",
    description: "The artifact types this team accepts, each with the JSON Schema its data must follow.",
    endpoint: api.artifacts.types,
    describe: { team: TEAM },
  }),
];
