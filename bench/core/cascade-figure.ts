/**
 * Figure 2: how long one publish takes when it unblocks a whole graph of contracts. Every
 * contract auto-completes as soon as it becomes ready, so the entire cascade runs inside that
 * one publish's transaction. Creating the graph is setup and is reported, not judged.
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { CreateContractInput } from "../../lib/api/contracts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { createContract } from "../../server/domain/contracts/contracts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { sql } from "../../server/db/sql.ts";
import { check } from "../lib/check.ts";
import { ms, target } from "../lib/stats.ts";
import type { DomainDeps } from "../../server/domain/deps.ts";
import { inTempDir, openHub } from "../lib/temp-db.ts";

const ROOT_ARTIFACT = "root-schema";

/** Contracts in creation order: each one's predecessor already exists. */
export type Graph = Array<{ id: string; after: string | null }>;

export function chain(length: number): Graph {
  return Array.from({ length }, (_, i) => ({ id: `chain-${i}`, after: i === 0 ? null : `chain-${i - 1}` }));
}

/** One root, `width` children, `width` grandchildren under each child. */
export function fanOut(width: number): Graph {
  const graph: Graph = [{ id: "fan", after: null }];
  for (let m = 0; m < width; m++) graph.push({ id: `fan-${m}`, after: "fan" });
  for (let m = 0; m < width; m++) for (let n = 0; n < width; n++) graph.push({ id: `fan-${m}-${n}`, after: `fan-${m}` });
  return graph;
}

function contractInput({ id, after }: Graph[number]) {
  return CreateContractInput.parse(
    after
      ? {
          id,
          title: id,
          assignee: "dev",
          dependencies: [{ type: "contract", contractId: after }],
          acceptanceCriteria: [{ type: "contract_completed", contractId: after }],
        }
      : {
          id,
          title: id,
          assignee: "dev",
          dependencies: [{ type: "artifact", artifactId: ROOT_ARTIFACT }],
          acceptanceCriteria: [{ type: "artifact_published", artifactId: ROOT_ARTIFACT }],
        },
  );
}

const count = async (hub: DomainDeps, status: string) =>
  (await hub.db.read((s) => s.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM "Contract" WHERE "status" = ${status}`)))!.n;

/** A fresh migrated database: SQLite in a temporary directory by default, PostgreSQL for bench/postgres.bench.ts. */
export type OpenBench = (run: (hub: DomainDeps) => Promise<void>) => Promise<void>;

const onSqlite: OpenBench = (run) =>
  inTempDir(async (dir) => {
    const hub = openHub(dir);
    try {
      await run(hub);
    } finally {
      await hub.close();
    }
  });

/** `label`: the figure's name prefix (`core` on SQLite). */
export function cascadeFigure(name: string, shape: string, graph: Graph, maxMs: number, open: OpenBench = onSqlite, label = "core"): Promise<void> {
  return open(async (hub) => {
    const setupStart = performance.now();
    for (const c of graph) await createContract(hub, OPERATOR, contractInput(c));
    const setupMs = performance.now() - setupStart;
    check((await count(hub, "pending")) === graph.length, `${name}: all ${graph.length} contracts start pending`);

    const t0 = performance.now();
    const r = await publishArtifact(
      hub,
      OPERATOR,
      PublishArtifactInput.parse({
        id: ROOT_ARTIFACT,
        type: "schema-change",
        data: { models: [{ name: "User", action: "create", fields: ["id", "email"] }] },
      }),
    );
    const elapsed = performance.now() - t0;

    const completed = await count(hub, "completed");
    check(completed === graph.length, `${name}: ${completed} of ${graph.length} contracts completed`);
    check(
      r.effects.length === 2 * graph.length,
      `${name}: the publish reported ${r.effects.length} transitions, expected ${2 * graph.length} (ready + completed each)`,
    );
    console.log(
      `${label}.cascade.${name}: ${graph.length} contracts (${shape}) completed in ${ms(elapsed)} inside one publish, ` +
        `${(graph.length / (elapsed / 1000)).toFixed(0)} contracts/s ${target(`< ${maxMs / 1000} s`, elapsed < maxMs)} (setup ${ms(setupMs)}, not timed)`,
    );
  });
}
