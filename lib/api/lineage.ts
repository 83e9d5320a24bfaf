/** Inputs of the lineage queries (docs/domain.md#lineage): the DAG around a version, impact, staleness, audit. */
import { z } from "zod";
import { EntityId } from "../ids.ts";
import { VersionRef } from "./artifacts.ts";
import { TeamParam } from "./common.ts";

/** Hops a lineage query follows by default, and at most: deep enough for any real chain, bounded for the canvas. */
export const DEFAULT_LINEAGE_DEPTH = 25;
export const MAX_LINEAGE_DEPTH = 100;

export const LineageDirection = z.enum(["upstream", "downstream"], { error: "must be 'upstream' or 'downstream'" });
export type LineageDirection = z.infer<typeof LineageDirection>;

export const LineageInput = z.object({
  team: TeamParam,
  /** `id` (its current version: the newest active one) or `id@vN`. */
  ref: VersionRef,
  direction: LineageDirection.default("upstream"),
  depth: z
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_LINEAGE_DEPTH, { error: `must be at most ${MAX_LINEAGE_DEPTH}` })
    .default(DEFAULT_LINEAGE_DEPTH),
});
export type LineageInput = z.infer<typeof LineageInput>;

export const ImpactInput = z.object({ team: TeamParam, id: EntityId });
export type ImpactInput = z.infer<typeof ImpactInput>;

export const StaleInput = z.object({ team: TeamParam });
export type StaleInput = z.infer<typeof StaleInput>;

export const AuditInput = z.object({ team: TeamParam, ref: VersionRef });
export type AuditInput = z.infer<typeof AuditInput>;

/**
 * One hop of a stale path, from a version to one of its inputs: named in its `derivedFrom`, or a
 * pinned input of the contract it was published under (linked when that contract completed).
 */
export type StaleStep = { version: string; input: string; via: "derivedFrom" } | { version: string; input: string; via: "contract"; contractId: string };

/**
 * Why an artifact's current version is stale: what happened to the root version, and the path from
 * the stale version up to it (`path[0].version` is the stale version, the last step's input the
 * root). The path is empty when the stale version itself was invalidated.
 * `superseded`: the root's artifact now has a newer current version; `rolled_back`: the root was
 * rolled back, `current` is what its artifact has now (older, newer or none).
 */
export type StaleReason =
  | { kind: "superseded"; root: string; current: string; path: StaleStep[] }
  | { kind: "rolled_back"; root: string; current: string | null; path: StaleStep[] }
  | { kind: "invalidated"; root: string; reason: string; markedBy: string; path: StaleStep[] };

export type StaleArtifact = { artifactId: string; version: number; reasons: StaleReason[] };
