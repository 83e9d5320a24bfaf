/**
 * The canvas read model (docs/domain.md#overview): a team's artifacts and contracts as one graph of plain adjacency
 * data. The hub never stores positions; the dashboard lays the graph out itself.
 */
import { z } from "zod";
import { TeamParam } from "./common.ts";
import { ContractStatus, Priority } from "./contracts.ts";
import { StaleReason } from "./lineage.ts";
import { IsoDate } from "./endpoint.ts";
import { STATE_STATUSES } from "./knowledge.ts";

export const GraphInput = z.object({ team: TeamParam });
export type GraphInput = z.infer<typeof GraphInput>;

// ── Responses ──

/**
 * `unpublished`: named by a contract (dependency or expected output) but never published;
 * `archived`: hidden by team_reset, shown only because a contract names it;
 * `rolled_back`: every version was rolled back.
 */
export const ArtifactNodeStatus = z.enum(["active", "rolled_back", "archived", "unpublished"]);
export type ArtifactNodeStatus = z.infer<typeof ArtifactNodeStatus>;

/** Node keys are `artifact:<id>` and `contract:<id>`: the two kinds have separate id spaces. */
export const ArtifactGraphNode = z.object({
  kind: z.literal("artifact"),
  key: z.string(),
  id: z.string(),
  type: z.string().nullable(),
  name: z.string(),
  /** The current version (newest active one); null when there is none. */
  version: z.number().int().nullable(),
  /** The highest version ever published (greater than `version` after a rollback). */
  latestVersion: z.number().int(),
  status: ArtifactNodeStatus,
  stale: z.boolean(),
  /** Why its current version is stale (the verdict of docs/domain.md#staleness, as computed by the lineage code). */
  staleReasons: z.array(StaleReason),
  publisher: z.string().nullable(),
});
export type ArtifactGraphNode = z.output<typeof ArtifactGraphNode>;

export const ContractGraphNode = z.object({
  kind: z.literal("contract"),
  key: z.string(),
  id: z.string(),
  title: z.string(),
  assignee: z.string(),
  status: ContractStatus,
  statusReason: z.string().nullable(),
  priority: Priority,
  /** The assignee's newest state update (docs/knowledge.md#dashboard), shown as a badge; null when it posted none. */
  memberState: z
    .object({ status: z.enum(STATE_STATUSES), task: z.string(), at: IsoDate })
    .nullable()
    .optional(),
});
export type ContractGraphNode = z.output<typeof ContractGraphNode>;

export const GraphNode = z.discriminatedUnion("kind", [ArtifactGraphNode, ContractGraphNode]);
export type GraphNode = z.output<typeof GraphNode>;

/**
 * Edges point the way work flows:
 * derived_from  input artifact → artifact whose current version was derived from it;
 * depends_on    contract → the contract that depends on it;
 * needs_artifact artifact → the contract that depends on it;
 * output        contract → artifact it expects, published, or recorded as its output.
 */
export const GraphEdgeKind = z.enum(["derived_from", "depends_on", "needs_artifact", "output"]);
export type GraphEdgeKind = z.infer<typeof GraphEdgeKind>;
export const GraphEdge = z.object({ from: z.string(), to: z.string(), kind: GraphEdgeKind });
export type GraphEdge = z.output<typeof GraphEdge>;

export const GraphView = z.object({ team: z.string(), nodes: z.array(GraphNode), edges: z.array(GraphEdge) });
export type GraphView = z.output<typeof GraphView>;

export const artifactKey = (id: string) => `artifact:${id}`;
export const contractKey = (id: string) => `contract:${id}`;
