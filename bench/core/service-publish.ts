/** The measured path: every publish parsed and sent through the service layer, as an adapter would. */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { CreateContractInput } from "../../lib/api/contracts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { createContract } from "../../server/domain/contracts/contracts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import type { DomainDeps } from "../../server/domain/deps.ts";
import { artifactId, type Workload } from "./publish-workload.ts";

// Often enough to see the peak, rarely enough that reading /proc stays out of the latencies.
export const SAMPLE_EVERY = 20;

export async function createWatchers(hub: DomainDeps, w: Workload): Promise<void> {
  for (const c of w.contracts) await createContract(hub, OPERATOR, CreateContractInput.parse(c));
}

/** Latency of each publish; `sample` runs between publishes, outside the timed section. */
export async function servicePublishes(hub: DomainDeps, w: Workload, sample: () => void = () => {}): Promise<Float64Array> {
  const latencies = new Float64Array(w.publishes.length);
  const wrong: string[] = [];
  for (const [i, p] of w.publishes.entries()) {
    const t0 = performance.now();
    const r = await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: p.id, type: p.type, data: p.data, derivedFrom: p.derivedFrom }));
    latencies[i] = performance.now() - t0;
    const pinned = p.pinned.map((x) => `${artifactId(x.artifact)}@v${x.version}`);
    if (r.version !== p.version || r.derivedFrom.join() !== pinned.join()) {
      wrong.push(`${p.id}: got v${r.version} from [${r.derivedFrom}], expected v${p.version} from [${pinned}]`);
    }
    if (i % SAMPLE_EVERY === 0) sample();
  }
  check(wrong.length === 0, `${wrong.length} publishes returned the wrong version or inputs, e.g. ${wrong[0]}`);
  return latencies;
}
