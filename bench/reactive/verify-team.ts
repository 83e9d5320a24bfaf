/** The generated team, read back through the domain functions: if these disagree with the plan, every figure after them would measure a wrong database. */
import { GetArtifactInput } from "../../lib/api/artifacts.ts";
import { ContractRefInput } from "../../lib/api/contracts.ts";
import { ImpactInput, LineageInput, StaleInput, type StaleReason } from "../../lib/api/lineage.ts";
import { getArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { getContract } from "../../server/domain/contracts/contracts.service.ts";
import { impact, lineage, staleArtifacts } from "../../server/domain/lineage/lineage.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import type { BenchHub } from "../lib/temp-db.ts";
import type { BigTeam } from "./big-team.ts";
import { ARTIFACTS, LAYERS, VERSIONS, WIDTH, artifactId, inputsOf, layerOfId } from "./team-plan.ts";

async function checkArtifact(hub: BenchHub, { plan }: BigTeam): Promise<void> {
  const a = 7 * WIDTH + 123;
  const v = await getArtifact(hub, OPERATOR, GetArtifactInput.parse({ id: artifactId(a) }));
  const pinned = inputsOf(plan, a, VERSIONS).map(([s, version]) => `${artifactId(s)}@v${version}`);
  check(v.version === VERSIONS && v.status === "active", `getArtifact(${artifactId(a)}) returned v${v.version} (${v.status}), expected v${VERSIONS} active`);
  check(v.derivedFrom.join() === pinned.join(), `getArtifact(${artifactId(a)}) derives from [${v.derivedFrom}], the plan says [${pinned}]`);
  check(v.size === Buffer.byteLength(JSON.stringify(v.data)), `getArtifact(${artifactId(a)}): size ${v.size} is not the byte length of its data`);
}

async function checkLineageDepth(hub: BenchHub): Promise<void> {
  const id = artifactId(ARTIFACTS - 1);
  const g = await lineage(hub, LineageInput.parse({ ref: id, direction: "upstream" }));
  const deepest = Math.max(...g.nodes.map((n) => n.depth));
  const layers = new Set(g.nodes.map((n) => layerOfId(n.artifactId)));
  check(
    g.root === `${id}@v${VERSIONS}` && deepest === LAYERS - 1 && layers.size === LAYERS,
    `lineage upstream of ${id}: root ${g.root}, deepest node ${deepest} hops, ${layers.size} layers; expected ${LAYERS - 1} hops through all ${LAYERS} layers`,
  );
}

async function checkStale(hub: BenchHub, { stale }: BigTeam): Promise<void> {
  const found = await staleArtifacts(hub, StaleInput.parse({}));
  const wrong = found.filter((s) => {
    const direct = (r: StaleReason) => r.path.length === 1 && r.path[0].input === r.root;
    const reasons = s.reasons.map((r) => (direct(r) ? `${r.kind} ${r.root}` : `${r.kind} via ${r.path[0].input}`)).sort();
    // Every path runs from this version, input to input, up to its root.
    const connected = s.reasons.every(
      (r) => r.path[0].version === `${s.artifactId}@v${s.version}` && r.path.every((p, i) => (r.path[i + 1]?.version ?? r.root) === p.input),
    );
    return s.version !== VERSIONS || !connected || reasons.join() !== stale.get(s.artifactId)?.join();
  });
  check(
    found.length === stale.size && wrong.length === 0,
    `staleArtifacts returned ${found.length} artifacts (${wrong.length} with other reasons than planned, e.g. ${wrong[0]?.artifactId}), the plan makes ${stale.size} stale`,
  );
}

async function checkContracts(hub: BenchHub, { contracts }: BigTeam): Promise<void> {
  for (const status of ["pending", "ready", "in_progress", "completed", "failed"]) {
    const p = contracts.find((c) => c.status === status)!;
    const c = await getContract(hub, ContractRefInput.parse({ id: p.input.id }));
    check(
      c.status === status && JSON.stringify(c.dependencies) === JSON.stringify(p.input.dependencies),
      `contract ${p.input.id} reads back as ${c.status} with ${JSON.stringify(c.dependencies)}, planned ${status} with ${JSON.stringify(p.input.dependencies)}`,
    );
  }
  // Impact finds contracts through the ContractWatch index the generator wrote.
  const p = contracts.find((c) => c.input.dependencies[0]?.type === "artifact")!;
  const dep = p.input.dependencies[0] as { artifactId: string };
  const r = await impact(hub, ImpactInput.parse({ id: dep.artifactId }));
  const found = r.contracts.some((c) => c.contractId === p.input.id && c.artifactId === dep.artifactId && c.relation === "dependency");
  check(found, `impact(${dep.artifactId}) does not list contract ${p.input.id}, which depends on it`);
  // Every edge goes one layer down, so an impacted artifact's depth is its distance in layers.
  const misplaced = r.artifacts.filter((x) => x.depth !== layerOfId(x.artifactId) - layerOfId(dep.artifactId));
  check(misplaced.length === 0, `impact(${dep.artifactId}) puts ${misplaced[0]?.artifactId} at depth ${misplaced[0]?.depth}`);
}

export async function verifyTeam(hub: BenchHub, team: BigTeam): Promise<void> {
  await checkArtifact(hub, team);
  await checkLineageDepth(hub);
  await checkStale(hub, team);
  await checkContracts(hub, team);
}
