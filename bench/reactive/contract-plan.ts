/**
 * 10,000 contracts over the planned artifacts, in every status, each in the state resolution
 * would have left it (docs/domain.md#resolution): pending ones wait for something that does not exist yet, ready and
 * in-progress ones have their dependencies but not their criteria, completed ones met theirs.
 * A rollback re-resolves every open contract: were the generated state one that resolution
 * changes, the rollback figure would time that repair. The warm-up rollback checks it does not.
 */
import { CreateContractInput, type CreateContract } from "../../lib/api/contracts.ts";
import type { PinnedRef } from "../../server/domain/artifacts/refs.ts";
import type { Random } from "../lib/random.ts";
import { ARTIFACTS, VERSIONS, WIDTH, artifactId, seqOf, typeOf } from "./team-plan.ts";

export const CONTRACTS = 10_000;
type PlannedStatus = "pending" | "ready" | "in_progress" | "completed" | "failed";
const STATUS_WEIGHTS: Array<[PlannedStatus, number]> = [
  ["completed", 0.3],
  ["failed", 0.1],
  ["ready", 0.2],
  ["in_progress", 0.15],
  ["pending", 0.25],
];
const PRIORITIES = ["low", "normal", "normal", "high", "critical"] as const;

export type PlannedContract = {
  input: CreateContract;
  status: PlannedStatus;
  statusReason: string | null;
  pinnedInputs: PinnedRef[] | null;
  /** Whether it went through in_progress (completed contracts may also have completed straight from ready). */
  started: boolean;
};

const contractId = (k: number) => `c-${String(k).padStart(5, "0")}`;

function drawStatus(rng: Random): PlannedStatus {
  let x = rng.next();
  for (const [status, weight] of STATUS_WEIGHTS) if ((x -= weight) < 0) return status;
  return "pending";
}

const current = (a: number): PinnedRef => ({ artifactId: artifactId(a), version: VERSIONS, seq: seqOf(a, VERSIONS) });
/** A test-results artifact (see typeOf). */
const testArtifact = (rng: Random) => rng.int(ARTIFACTS / 15) * 15;

/** Criteria (or expected outputs) that the current versions do not meet: nothing was published since the contract's window opened. */
function unmetWork(rng: Random): Pick<CreateContract, "acceptanceCriteria" | "expectedOutputs"> {
  const b = rng.int(ARTIFACTS);
  switch (rng.int(3)) {
    case 0:
      return { acceptanceCriteria: [], expectedOutputs: [{ artifactType: typeOf(b), artifactId: artifactId(b), required: true }] };
    case 1:
      return { acceptanceCriteria: [{ type: "artifact_published", artifactId: artifactId(b), minVersion: VERSIONS + 1 }], expectedOutputs: [] };
    default:
      return {
        acceptanceCriteria: [{ type: "tests_passing", artifactId: artifactId(testArtifact(rng)), minPassRate: 0.95, maxFailed: 0 }],
        expectedOutputs: [],
      };
  }
}

export function planContracts(rng: Random): PlannedContract[] {
  const planned: PlannedContract[] = [];
  const completed: string[] = [];
  const open: string[] = [];
  for (let k = 0; k < CONTRACTS; k++) {
    const status = drawStatus(rng);
    const a = rng.int(ARTIFACTS);
    const dependencies: CreateContract["dependencies"] = [];
    if (status === "pending") {
      // Waits for a version nobody has published, or for an open contract.
      if (open.length && rng.chance(0.4)) dependencies.push({ type: "contract", contractId: rng.pick(open) });
      else dependencies.push({ type: "artifact", artifactId: artifactId(a), minVersion: VERSIONS + 1 });
    } else {
      dependencies.push({ type: "artifact", artifactId: artifactId(a), minVersion: rng.between(1, VERSIONS) });
      if (completed.length && rng.chance(0.3)) dependencies.push({ type: "contract", contractId: rng.pick(completed) });
    }
    const work: Pick<CreateContract, "acceptanceCriteria" | "expectedOutputs"> =
      status === "completed"
        ? {
            acceptanceCriteria: [{ type: "artifact_published", artifactId: artifactId(rng.int(ARTIFACTS)), minVersion: rng.between(1, VERSIONS) }],
            expectedOutputs: [],
          }
        : unmetWork(rng);
    const id = contractId(k);
    const input = CreateContractInput.parse({
      id,
      title: `Follow up on ${artifactId(a)} (layer ${Math.floor(a / WIDTH)})`,
      description: `Keep ${artifactId(a)} and its consumers consistent after the latest changes.`,
      assignee: `dev-${k % 20}`,
      inputs: { context: `See ${artifactId(a)}; coordinate with dev-${(k + 7) % 20}.` },
      dependencies,
      ...work,
      priority: rng.pick(PRIORITIES),
    });
    // A contract's inputs: its artifact dependencies' current versions; completed contracts here recorded no outputs.
    const inputs = dependencies.flatMap((d) => (d.type === "artifact" ? [current(a)] : []));
    const started = status === "in_progress" || (status === "completed" && rng.chance(0.5));
    planned.push({
      input,
      status,
      statusReason: {
        pending: null,
        ready: "dependencies satisfied",
        in_progress: `started by ${input.assignee}`,
        completed: "acceptance criteria met",
        failed: "blocked by a flaky environment",
      }[status],
      pinnedInputs: started || status === "completed" ? inputs : null,
      started,
    });
    if (status === "completed") completed.push(id);
    else if (status !== "failed") open.push(id);
  }
  return planned;
}
