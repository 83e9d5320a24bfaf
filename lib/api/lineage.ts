/** Inputs of the lineage queries (§6): the DAG around a version, impact, staleness, audit. */
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
