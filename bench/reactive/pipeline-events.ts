/**
 * The publishes the pipeline figure feeds the runner: 200 artifacts of four types (test runs,
 * API descriptions, schema changes, custom), 10 versions each, from 10 CI agents, with the same
 * ~1 KB data as the large team. Each one is kept as the rules see it, so the expected outcome of
 * every rule on every event can be worked out without the hub.
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import type { DomainDeps } from "../../server/domain/deps.ts";
import { seeded } from "../lib/random.ts";
import { versionData } from "./version-data.ts";

export const AREAS = ["auth", "billing", "search", "export", "queue"] as const;
const KINDS = [
  { type: "test-results", short: "tests" },
  { type: "api-contract", short: "api" },
  { type: "schema-change", short: "schema" },
  { type: "custom", short: "build" },
] as const;
const ARTIFACTS = 200;
const VERSIONS = 10;
/** Every seventh version is a hotfix. */
const HOTFIX_EVERY = 7;

/** What a rule sees of one publish, in the shapes of the JSON it is written as. */
export type Published = {
  id: string;
  type: string;
  name: string;
  version: number;
  publisher: string;
  summary: string;
  /** Bytes of the JSON data, as the event payload reports it. */
  size: number;
  data: Record<string, unknown>;
};

export function pipelineEvents(): Published[] {
  const rng = seeded(6);
  const out: Published[] = [];
  for (let version = 1; version <= VERSIONS; version++) {
    for (let k = 0; k < ARTIFACTS; k++) {
      const { type, short } = KINDS[k % KINDS.length];
      const area = AREAS[k % AREAS.length];
      const id = `${area}-${short}-${String(k).padStart(3, "0")}`;
      const data = versionData(type, id, version, rng);
      out.push({
        id,
        type,
        name: `${area} ${short}`,
        version,
        publisher: `ci-${k % 10}`,
        summary: version % HOTFIX_EVERY === 0 ? `${area} hotfix` : "routine build",
        size: Buffer.byteLength(JSON.stringify(data)),
        data,
      });
    }
  }
  return out;
}

/** Publishes `e` through the service layer, as its CI agent. */
export const publishEvent = (deps: DomainDeps, e: Published) =>
  publishArtifact(
    deps,
    { name: e.publisher, kind: "agent" },
    PublishArtifactInput.parse({ id: e.id, type: e.type, name: e.name, data: e.data, summary: e.summary }),
  );
