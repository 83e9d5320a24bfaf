/**
 * The work a rollback has to undo: 500 open contracts changed by command (half reassigned, half
 * failed), then 1,000 new versions published through the service layer, each derived from its
 * sources' current versions. The publishes also move contracts on their own: pending ones whose
 * dependency waited for a version 11 become ready, ready ones whose output or criterion it was
 * complete, and their dependents follow.
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { ReasonInput, ReassignContractInput } from "../../lib/api/contracts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { failContract, reassignContract } from "../../server/domain/contracts/contracts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import { seeded, type Random } from "../lib/random.ts";
import type { BenchHub } from "../lib/temp-db.ts";
import type { BigTeam } from "./big-team.ts";
import { ARTIFACTS, VERSIONS, artifactId, publisherOf, typeOf } from "./team-plan.ts";
import { versionData } from "./version-data.ts";

export const NEW_VERSIONS = 1000;
export const CHANGED_CONTRACTS = 500;

function distinct(rng: Random, n: number, of: number): number[] {
  const picked = new Set<number>();
  while (picked.size < n) picked.add(rng.int(of));
  return [...picked];
}

export async function changeTeam(hub: BenchHub, { plan, contracts }: BigTeam): Promise<void> {
  const rng = seeded(5);
  const open = contracts.filter((c) => c.status !== "completed" && c.status !== "failed");
  for (const [i, k] of distinct(rng, CHANGED_CONTRACTS, open.length).entries()) {
    const id = open[k].input.id;
    if (i % 2 === 0) await reassignContract(hub, OPERATOR, ReassignContractInput.parse({ id, assignee: `lead-${i % 5}` }));
    else await failContract(hub, OPERATOR, ReasonInput.parse({ id, reason: "superseded by a new plan" }));
  }
  let wrong = 0;
  for (const a of distinct(rng, NEW_VERSIONS, ARTIFACTS).sort((x, y) => x - y)) {
    const id = artifactId(a);
    const r = await publishArtifact(
      hub,
      { name: publisherOf(a), kind: "member" },
      PublishArtifactInput.parse({ id, type: typeOf(a), data: versionData(typeOf(a), id, VERSIONS + 1, rng), derivedFrom: plan.sources[a].map(artifactId) }),
    );
    if (r.version !== VERSIONS + 1) wrong++;
  }
  check(wrong === 0, `${wrong} of the ${NEW_VERSIONS} new publishes did not get version ${VERSIONS + 1}`);
}
