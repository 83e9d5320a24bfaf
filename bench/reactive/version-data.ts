/**
 * About 1 KB of JSON per version, valid for its type (the service-layer publishes of the same
 * generator go through the hub's validation): what a build, a test run, an API description or
 * a schema change typically carries.
 */
import type { Random } from "../lib/random.ts";

/** Share of test runs with failures. */
const FAILING_RUNS = 0.15;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ACTIONS = ["create", "update", "update", "update", "delete", "rename"] as const;
const WORDS = ["cache", "retry", "timeout", "session", "token", "ledger", "invoice", "auth", "search", "export", "billing", "queue"];

const hex = (rng: Random, n: number) => Array.from({ length: n }, () => rng.int(16).toString(16)).join("");
const words = (rng: Random, n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(" ");

function testResults(id: string, rng: Random) {
  const total = rng.between(40, 400);
  const failed = rng.chance(FAILING_RUNS) ? rng.between(1, 5) : 0;
  const skipped = rng.between(0, 5);
  return {
    total,
    passed: total - failed - skipped,
    failed,
    skipped,
    suite: id,
    durationMs: rng.between(2_000, 90_000),
    failures: Array.from({ length: failed }, (_, i) => ({
      name: `${id} ${words(rng, 2)} case ${i}`,
      message: `expected ${rng.int(500)}, got ${rng.int(500)}`,
    })),
    slowest: Array.from({ length: 15 - failed }, () => ({ name: `${words(rng, 3)} handles ${words(rng, 1)}`, ms: rng.between(50, 4_000) })),
  };
}

function apiContract(id: string, rng: Random) {
  return {
    service: id,
    endpoints: Array.from({ length: rng.between(4, 7) }, (_, i) => ({
      method: rng.pick(METHODS),
      path: `/${id}/${rng.pick(WORDS)}/${i}`,
      request: { body: { [rng.pick(WORDS)]: "string", limit: "number" } },
      response: { status: 200, body: { id: "string", [rng.pick(WORDS)]: "string", updatedAt: "date-time" } },
    })),
  };
}

function schemaChange(id: string, rng: Random) {
  return {
    models: Array.from({ length: rng.between(3, 5) }, (_, i) => ({
      name: `${id.replace(/[^a-z0-9]/g, "")}Model${i}`,
      action: rng.pick(ACTIONS),
      fields: ["id", "createdAt", ...Array.from({ length: rng.between(7, 11) }, () => `${rng.pick(WORDS)}_${rng.int(100)}`)],
    })),
    migration: `${hex(rng, 12)}_${words(rng, 2).replace(/ /g, "_")}`,
  };
}

function custom(id: string, version: number, rng: Random) {
  return {
    module: id,
    revision: version,
    build: { commit: hex(rng, 40), branch: "main", durationMs: rng.between(1_000, 600_000), cache: rng.chance(0.7) ? "hit" : "miss" },
    metrics: { coverage: Math.round(rng.next() * 1000) / 1000, lines: rng.between(200, 40_000), complexity: rng.between(1, 60), warnings: rng.int(12) },
    changes: Array.from({ length: 8 }, (_, i) => ({ file: `src/${id}/${rng.pick(WORDS)}-${i}.ts`, added: rng.int(400), removed: rng.int(200) })),
    notes: words(rng, 40),
  };
}

export function versionData(type: string, id: string, version: number, rng: Random): Record<string, unknown> {
  switch (type) {
    case "test-results":
      return testResults(id, rng);
    case "api-contract":
      return apiContract(id, rng);
    case "schema-change":
      return schemaChange(id, rng);
    default:
      return custom(id, version, rng);
  }
}
