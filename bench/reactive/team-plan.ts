/**
 * The shape of the large team: 20 layers of 500 artifacts, 10 versions each, every artifact
 * outside the first layer derived from 1–3 artifacts of the layer before. Planned in memory
 * first, so the writer, the checks and the staleness model all agree on what exists.
 *
 * Publishing goes round by round (every artifact gets version r+1 in round r, layer by layer),
 * so when a version is published its inputs' current version is the same round's. Most inputs
 * pin that one; a few pin an older version, which is what leaves artifacts stale.
 */
import type { Random } from "../lib/random.ts";

export const LAYERS = 20;
export const WIDTH = 500;
export const VERSIONS = 10;
export const ARTIFACTS = LAYERS * WIDTH;
const MAX_INPUTS = 3;
/**
 * Inputs come from within this many positions in the previous layer, as a module depends on its
 * neighbours: a lineage cone widens a few artifacts per hop instead of covering a whole layer
 * after ten hops, which is what the canvas shows for a real project.
 */
const REACH = 2;
/** Chance that an input is pinned to an older version than its source's current one. */
const OLDER_INPUT = 0.03;

const WELL_KNOWN = ["test-results", "api-contract", "schema-change"] as const;
/** One artifact in five has a well-known type; the rest are `custom`. */
export const typeOf = (a: number): string => WELL_KNOWN[a % 15] ?? "custom";

const layerOf = (a: number) => Math.floor(a / WIDTH);
export const artifactId = (a: number) => `l${String(layerOf(a)).padStart(2, "0")}-m${String(a % WIDTH).padStart(3, "0")}`;
export const layerOfId = (id: string) => Number(id.slice(1, 3));
export const nameOf = (a: number) => `Layer ${layerOf(a)} module ${a % WIDTH}`;
export const publisherOf = (a: number) => `dev-${a % 20}`;
/** Versions are inserted round by round on a fresh database, so each one's seq is known in advance (checked when written). */
export const seqOf = (a: number, version: number) => (version - 1) * ARTIFACTS + a + 1;
export const MAX_SEQ = seqOf(ARTIFACTS - 1, VERSIONS);

/** Where the pins of version v of artifact a start in TeamPlan.pinned. */
const slot = (a: number, version: number) => (a * VERSIONS + version - 1) * MAX_INPUTS;

export type TeamPlan = {
  /** Per artifact, the artifacts of the previous layer it derives from (none in layer 0). */
  sources: number[][];
  /** `pinned[slot(a, v) + k]`: the version of `sources[a][k]` that version v of a was derived from. */
  pinned: Uint8Array;
};

export function planTeam(rng: Random): TeamPlan {
  const sources: number[][] = [];
  for (let a = 0; a < ARTIFACTS; a++) {
    if (layerOf(a) === 0) {
      sources.push([]);
      continue;
    }
    const position = a % WIDTH;
    const previousLayer = a - position - WIDTH;
    const picked = new Set<number>();
    const want = rng.between(1, MAX_INPUTS);
    while (picked.size < want) picked.add(previousLayer + ((position + rng.between(-REACH, REACH) + WIDTH) % WIDTH));
    sources.push([...picked]);
  }
  const pinned = new Uint8Array(ARTIFACTS * VERSIONS * MAX_INPUTS);
  for (let a = 0; a < ARTIFACTS; a++) {
    for (let v = 1; v <= VERSIONS; v++) {
      for (let k = 0; k < sources[a].length; k++) pinned[slot(a, v) + k] = v > 1 && rng.chance(OLDER_INPUT) ? rng.between(1, v - 1) : v;
    }
  }
  return { sources, pinned };
}

/** `[source, version]` for each input of version v of a, in derivedFrom order. */
export function inputsOf(plan: TeamPlan, a: number, version: number): Array<[number, number]> {
  return plan.sources[a].map((s, k) => [s, plan.pinned[slot(a, version) + k]]);
}
