/** Inputs of the lineage queries (docs/domain.md#lineage): the DAG around a version, impact, staleness, audit. */
import { z } from "zod";
import { CodeRef } from "./worktrees.ts";
import { EntityId } from "../ids.ts";
import { VersionRef, VersionStatus } from "./artifacts.ts";
import { TeamParam } from "./common.ts";
import { ContractStatus } from "./contracts.ts";
import { IsoDate } from "./endpoint.ts";

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

// ── Responses ──

/**
 * One hop of a stale path, from a version to one of its inputs: named in its `derivedFrom`, or a
 * pinned input of the contract it was published under (linked when that contract completed).
 */
export const StaleStep = z.discriminatedUnion("via", [
  z.object({ version: z.string(), input: z.string(), via: z.literal("derivedFrom") }),
  z.object({ version: z.string(), input: z.string(), via: z.literal("contract"), contractId: z.string() }),
]);
export type StaleStep = z.output<typeof StaleStep>;

/**
 * Why an artifact's current version is stale: what happened to the root version, and the path from
 * the stale version up to it (`path[0].version` is the stale version, the last step's input the
 * root). The path is empty when the stale version itself was invalidated.
 * `superseded`: the root's artifact now has a newer current version; `rolled_back`: the root was
 * rolled back, `current` is what its artifact has now (older, newer or none).
 */
export const StaleReason = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("superseded"), root: z.string(), current: z.string(), path: z.array(StaleStep) }),
  z.object({ kind: z.literal("rolled_back"), root: z.string(), current: z.string().nullable(), path: z.array(StaleStep) }),
  z.object({ kind: z.literal("invalidated"), root: z.string(), reason: z.string(), markedBy: z.string(), path: z.array(StaleStep) }),
]);
export type StaleReason = z.output<typeof StaleReason>;

export const StaleArtifact = z.object({ artifactId: z.string(), version: z.number().int(), reasons: z.array(StaleReason) });
export type StaleArtifact = z.output<typeof StaleArtifact>;

export const StaleList = z.array(StaleArtifact);

/** Node keys are `id@vN`. */
export const LineageNode = z.object({
  key: z.string(),
  artifactId: z.string(),
  version: z.number().int(),
  type: z.string(),
  name: z.string(),
  status: VersionStatus,
  /** The newest active version of its artifact. */
  current: z.boolean(),
  /** Current and stale (see staleArtifacts); an older version is just not current. */
  stale: z.boolean(),
  publisher: z.string(),
  createdAt: IsoDate,
  /** Fewest hops from the root. */
  depth: z.number().int(),
});
export type LineageNode = z.output<typeof LineageNode>;

/** `derived`: named in derivedFrom; `contract`: linked when the contract (`contractId`) completed. */
export const LineageEdge = z.object({ from: z.string(), to: z.string(), kind: z.enum(["derived", "contract"]), contractId: z.string().nullable() });
export type LineageEdge = z.output<typeof LineageEdge>;

export const LineageGraph = z.object({ root: z.string(), direction: LineageDirection, nodes: z.array(LineageNode), edges: z.array(LineageEdge) });
export type LineageGraph = z.output<typeof LineageGraph>;

export const ContractRelation = z.enum(["dependency", "criterion", "output"]);
export type ContractRelation = z.infer<typeof ContractRelation>;

/** A contract relying on an artifact, and how: one entry per (contract, artifact, relation). */
export const DependentContract = z.object({
  contractId: z.string(),
  status: ContractStatus,
  assignee: z.string(),
  artifactId: z.string(),
  relation: ContractRelation,
});
export type DependentContract = z.output<typeof DependentContract>;

export const Impact = z.object({
  artifactId: z.string(),
  artifacts: z.array(z.object({ artifactId: z.string(), type: z.string(), currentVersion: z.number().int(), depth: z.number().int() })),
  contracts: z.array(DependentContract),
});
export type Impact = z.output<typeof Impact>;

/** What the interaction that published a version cost. */
export const PublishingCost = z.object({ session: z.string(), interaction: z.number().int(), costUsd: z.number(), sessionCostUsd: z.number() });
export type PublishingCost = z.output<typeof PublishingCost>;

export const AuditEntry = z.object({
  artifactId: z.string(),
  version: z.number().int(),
  type: z.string(),
  status: VersionStatus,
  publisher: z.string(),
  sessionId: z.string().nullable(),
  contractId: z.string().nullable(),
  publishedAt: IsoDate,
  inputs: z.array(z.string()),
  readers: z.array(z.object({ reader: z.string(), version: z.number().int(), at: IsoDate })),
  /** When a supervised session published it and still exists. */
  cost: PublishingCost.nullable(),
  /** The publisher's work tree at publish time (commit, branch, where its diff is). */
  code: CodeRef.nullable(),
  depth: z.number().int(),
});
export type AuditEntry = z.output<typeof AuditEntry>;

/** The provenance trail of a version: it and every version upstream of it, nearest first. */
export const Audit = z.object({ root: z.string(), trail: z.array(AuditEntry) });
export type Audit = z.output<typeof Audit>;
