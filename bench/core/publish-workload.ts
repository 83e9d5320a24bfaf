/**
 * The publish workload, generated deterministically so the service run, the raw baseline and
 * the checks all agree on what should exist afterwards.
 *
 * Publishes go round by round (every artifact gets version r+1 in round r). Most derive from
 * the previous artifact's current version (bare id, pinned at publish time); some also from an
 * older pinned version. One contract per ten artifacts watches them, in four shapes that each
 * complete at a different round, so resolution does real work throughout the run.
 */
import type { CreateContractInput } from "../../lib/api/contracts.ts";

const TYPES = ["schema-change", "api-contract", "test-results"] as const;
/** Test runs fail until this round, so tests_passing criteria stay unmet for most of the run. */
const TESTS_GREEN_FROM_ROUND = 7;

export type PublishSpec = {
  artifact: number;
  id: string;
  type: string;
  version: number;
  data: unknown;
  /** What the caller passes: `id` or `id@vN`. */
  derivedFrom: string[];
  /** What must be stored: always `id@vN`. */
  pinned: Array<{ artifact: number; version: number }>;
};

export type Workload = { artifacts: number; rounds: number; publishes: PublishSpec[]; contracts: CreateContractInput[] };

export const artifactId = (i: number) => `art-${String(i).padStart(4, "0")}`;
const typeOf = (i: number) => TYPES[i % TYPES.length];

function dataFor(i: number, round: number): unknown {
  switch (typeOf(i)) {
    case "schema-change":
      return {
        models: [
          {
            name: `Model${i}`,
            action: round === 0 ? "create" : "update",
            fields: ["id", "email", "createdAt", ...Array.from({ length: round }, (_, f) => `field${f}`)],
          },
        ],
      };
    case "api-contract":
      return {
        endpoints: [
          { method: "GET", path: `/models/${i}`, response: { status: 200, body: { id: "string", version: round + 1 } } },
          { method: "POST", path: `/models/${i}`, request: { body: { email: "string" } }, response: { status: 201 } },
        ],
      };
    default: {
      const failed = round < TESTS_GREEN_FROM_ROUND ? 1 : 0;
      return {
        total: 40,
        passed: 39 - failed,
        failed,
        skipped: 1,
        failures: failed ? [{ name: `model ${i} round-trips`, message: "expected 200, got 500" }] : [],
      };
    }
  }
}

function publishSpec(i: number, round: number): PublishSpec {
  const pinned: PublishSpec["pinned"] = [];
  const derivedFrom: string[] = [];
  if (i % 10 !== 0) {
    derivedFrom.push(artifactId(i - 1));
    pinned.push({ artifact: i - 1, version: round + 1 });
  }
  if (i % 5 === 2) {
    const version = Math.max(1, round);
    derivedFrom.push(`${artifactId(i - 2)}@v${version}`);
    pinned.push({ artifact: i - 2, version });
  }
  return { artifact: i, id: artifactId(i), type: typeOf(i), version: round + 1, data: dataFor(i, round), derivedFrom, pinned };
}

/** Contract k watches artifacts 10k..10k+9; every shape completes by round TESTS_GREEN_FROM_ROUND + 1. */
function contractSpec(k: number): CreateContractInput {
  const base = k * 10;
  const id = `watch-${String(k).padStart(3, "0")}`;
  const common = { id, title: `Contract ${k}`, assignee: `dev-${k % 7}` };
  switch (k % 4) {
    case 0:
      return {
        ...common,
        dependencies: [{ type: "artifact", artifactId: artifactId(base), minVersion: 2 }],
        expectedOutputs: [{ artifactType: typeOf(base + 1), artifactId: artifactId(base + 1) }],
      };
    case 1:
      return {
        ...common,
        dependencies: [{ type: "artifact", artifactId: artifactId(base), minVersion: 3 }],
        acceptanceCriteria: [{ type: "artifact_published", artifactId: artifactId(base + 2), minVersion: 5 }],
      };
    case 2: {
      const tests = base + ((2 - (base % 3) + 3) % 3);
      return {
        ...common,
        dependencies: [{ type: "artifact", artifactId: artifactId(base + 4) }],
        acceptanceCriteria: [{ type: "tests_passing", artifactId: artifactId(tests), minPassRate: 0.9 }],
      };
    }
    default: {
      const previous = `watch-${String(k - 1).padStart(3, "0")}`;
      return {
        ...common,
        dependencies: [{ type: "contract", contractId: previous }],
        acceptanceCriteria: [
          { type: "contract_completed", contractId: previous },
          { type: "artifact_published", artifactId: artifactId(base + 5), minVersion: TESTS_GREEN_FROM_ROUND + 2 },
        ],
      };
    }
  }
}

export function publishWorkload(artifacts: number, rounds: number): Workload {
  if (rounds < TESTS_GREEN_FROM_ROUND + 2) throw new Error(`the workload needs at least ${TESTS_GREEN_FROM_ROUND + 2} rounds for every contract to complete`);
  const publishes: PublishSpec[] = [];
  for (let round = 0; round < rounds; round++) for (let i = 0; i < artifacts; i++) publishes.push(publishSpec(i, round));
  return { artifacts, rounds, publishes, contracts: Array.from({ length: artifacts / 10 }, (_, k) => contractSpec(k)) };
}

/** The `artifact.published` payload a raw baseline writes for a publish, as the service would. */
export function publishedPayload(p: PublishSpec, version: number, seq: number, size: number) {
  return {
    artifactId: p.id,
    version,
    seq,
    type: p.type,
    name: p.id,
    publisher: "operator",
    contractId: null,
    derivedFrom: p.derivedFrom,
    summary: "",
    size,
  };
}
