/**
 * The canvas read model (docs/domain.md#overview): a team's artifacts and contracts as one graph of plain adjacency
 * data. The hub never stores positions; the dashboard lays the graph out itself.
 */
import { z } from "zod";
import type { ContractStatus } from "./contracts.ts";
import type { StaleReason } from "./lineage.ts";
import { TeamParam } from "./common.ts";

export const GraphInput = z.object({ team: TeamParam });
export type GraphInput = z.infer<typeof GraphInput>;

/**
 * `unpublished`: named by a contract (dependency or expected output) but never published;
 * `archived`: hidden by team_reset, shown only because a contract names it;
 * `rolled_back`: every version was rolled back.
 */
export type ArtifactNodeStatus = "active" | "rolled_back" | "archived" | "unpublished";

/** Node keys are `artifact:<id>` and `contract:<id>`: the two kinds have separate id spaces. */
export type ArtifactGraphNode = {
  kind: "artifact";
  key: string;
  id: string;
  type: string | null;
  name: string;
  /** The current version (newest active one); null when there is none. */
  version: number | null;
  /** The highest version ever published (greater than `version` after a rollback). */
  latestVersion: number;
  status: ArtifactNodeStatus;
  stale: boolean;
  /** Why its current version is stale (the verdict of docs/domain.md#staleness, as computed by the lineage code). */
  staleReasons: StaleReason[];
  publisher: string | null;
};

export type ContractGraphNode = {
  kind: "contract";
  key: string;
  id: string;
  title: string;
  assignee: string;
  status: ContractStatus;
  statusReason: string | null;
  priority: string;
};

export type GraphNode = ArtifactGraphNode | ContractGraphNode;

/**
 * Edges point the way work flows:
 * derived_from  input artifact → artifact whose current version was derived from it;
 * depends_on    contract → the contract that depends on it;
 * needs_artifact artifact → the contract that depends on it;
 * output        contract → artifact it expects, published, or recorded as its output.
 */
export type GraphEdgeKind = "derived_from" | "depends_on" | "needs_artifact" | "output";
export type GraphEdge = { from: string; to: string; kind: GraphEdgeKind };

export type GraphView = { team: string; nodes: GraphNode[]; edges: GraphEdge[] };

export const artifactKey = (id: string) => `artifact:${id}`;
export const contractKey = (id: string) => `contract:${id}`;
