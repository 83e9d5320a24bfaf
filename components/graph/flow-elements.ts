/**
 * From the hub's graph to xyflow's nodes and edges: pure, so the canvas component only renders.
 * Sizes and handle positions are given up front, so xyflow never has to measure 2,000 nodes
 * before it can draw them, and nodes whose content did not change keep their object (and skip
 * re-rendering) across live updates.
 */
import type { Edge, EdgeMarker, MarkerType, Node, NodeHandle, Position } from "@xyflow/react";
import type { ContractStatus, Dependency } from "@/lib/api/contracts.ts";
import type { ArtifactGraphNode, ContractGraphNode, GraphEdgeKind, GraphNode } from "@/lib/api/graph.ts";
import type { GroupGraphNode, ShownNode, ShownView } from "./grouping.ts";
import type { Layout, LayoutNode } from "./layout.ts";

export type ContractFlowNode = Node<{ contract: ContractGraphNode }, "contract">;
export type ArtifactFlowNode = Node<{ artifact: ArtifactGraphNode }, "artifact">;
export type GroupFlowNode = Node<{ group: GroupGraphNode }, "group">;
export type CanvasNode = ContractFlowNode | ArtifactFlowNode | GroupFlowNode;
export type CanvasEdge = Edge<{ kind: GraphEdgeKind }>;

export const isContractNode = (n: CanvasNode): n is ContractFlowNode => n.type === "contract";

export const isGroupNode = (n: CanvasNode): n is GroupFlowNode => n.type === "group";

export const NODE_SIZE: Record<ShownNode["kind"], { width: number; height: number }> = {
  contract: { width: 220, height: 66 },
  artifact: { width: 200, height: 56 },
  group: { width: 240, height: 76 },
};
/** Matches `.canvas-node .react-flow__handle` in globals.css. */
export const HANDLE_SIZE = 10;

/** What the filters hide; empty sets show everything, so new states and types appear by default. */
export type Filters = { kinds: Set<GraphNode["kind"]>; states: Set<ContractStatus>; types: Set<string> };
export const NO_FILTERS: Filters = { kinds: new Set(), states: new Set(), types: new Set() };

/** The type shown for an artifact nobody has published yet (its type is not known). */
export const UNPUBLISHED_TYPE = "(unpublished)";

/** A collapsed group stays in view whatever the filters: it stands for members of every kind. */
export function isHidden(n: ShownNode, f: Filters): boolean {
  if (n.kind === "group") return false;
  if (f.kinds.has(n.kind)) return true;
  return n.kind === "contract" ? f.states.has(n.status) : f.types.has(n.type ?? UNPUBLISHED_TYPE);
}

export const layoutNodesOf = (view: ShownView): LayoutNode[] => view.nodes.map((n) => ({ id: n.key, ...NODE_SIZE[n.kind] }));

function handlesOf(kind: ShownNode["kind"]): NodeHandle[] {
  const { width, height } = NODE_SIZE[kind];
  const x = width / 2 - HANDLE_SIZE / 2;
  return [
    { id: "in", type: "target", position: "top" as Position, x, y: -HANDLE_SIZE / 2, width: HANDLE_SIZE, height: HANDLE_SIZE },
    { id: "out", type: "source", position: "bottom" as Position, x, y: height - HANDLE_SIZE / 2, width: HANDLE_SIZE, height: HANDLE_SIZE },
  ];
}
const HANDLES = { contract: handlesOf("contract"), artifact: handlesOf("artifact"), group: handlesOf("group") };

function label(n: ShownNode): string {
  if (n.kind === "group")
    return `group ${n.id}: ${n.contracts} contracts, ${n.artifacts} artifacts${n.stale ? `, ${n.stale} stale` : ""}, collapsed (Enter expands it)`;
  if (n.kind === "contract") return `contract ${n.id}: ${n.title}, ${n.status.replace("_", " ")}, assigned to ${n.assignee}`;
  const version = n.version === null ? n.status.replace("_", " ") : `v${n.version}`;
  return `artifact ${n.id} (${n.type ?? "unpublished"}), ${version}${n.stale ? ", stale" : ""}`;
}

// The same object when the view did not change (a selection, a filter): comparing the text of 10,000 nodes costs 150 ms.
const sameEntity = (a: ShownNode, b: ShownNode) => a === b || JSON.stringify(a) === JSON.stringify(b);
const entityOf = (n: CanvasNode): ShownNode => (isContractNode(n) ? n.data.contract : isGroupNode(n) ? n.data.group : n.data.artifact);

/**
 * The nodes to draw. `previous` (by id) supplies the objects to keep when nothing about a node
 * changed, so xyflow re-renders only the nodes whose state, position, visibility or selection did.
 */
export function flowNodes(view: ShownView, layout: Layout, filters: Filters, selected: string | null, previous: ReadonlyMap<string, CanvasNode>): CanvasNode[] {
  return view.nodes.map((n) => {
    const position = layout.positions.get(n.key) ?? { x: 0, y: 0 };
    const hidden = isHidden(n, filters);
    const isSelected = n.key === selected;
    const old = previous.get(n.key);
    if (
      old &&
      old.position.x === position.x &&
      old.position.y === position.y &&
      !!old.hidden === hidden &&
      !!old.selected === isSelected &&
      sameEntity(entityOf(old), n)
    ) {
      return old;
    }
    // `measured` as well: fitView and the minimap only count nodes xyflow believes it measured.
    const common = {
      id: n.key,
      position,
      hidden,
      selected: isSelected,
      ariaLabel: label(n),
      ...NODE_SIZE[n.kind],
      measured: NODE_SIZE[n.kind],
      handles: HANDLES[n.kind],
    };
    if (n.kind === "group") return { ...common, type: "group" as const, data: { group: n } };
    return n.kind === "contract"
      ? { ...common, type: "contract" as const, data: { contract: n } }
      : { ...common, type: "artifact" as const, data: { artifact: n } };
  });
}

// One marker definition shared by every edge (xyflow dedupes markers by their settings).
const ARROW: EdgeMarker = { type: "arrowclosed" as MarkerType, color: "var(--muted)", width: 16, height: 16 };

/** The edges to draw, keeping the objects of edges whose visibility did not change (as flowNodes does). */
export function flowEdges(view: ShownView, hiddenNodes: ReadonlySet<string>, previous: ReadonlyMap<string, CanvasEdge>): CanvasEdge[] {
  return view.edges.map((e) => {
    const id = `${e.kind}:${e.from}->${e.to}`;
    const hidden = hiddenNodes.has(e.from) || hiddenNodes.has(e.to);
    const old = previous.get(id);
    if (old && !!old.hidden === hidden) return old;
    return {
      id,
      source: e.from,
      target: e.to,
      sourceHandle: "out",
      targetHandle: "in",
      className: `edge-${e.kind}`,
      hidden,
      selectable: false,
      markerEnd: ARROW,
      data: { kind: e.kind },
    };
  });
}

/**
 * The dependency a drag from `source`'s handle to `target`'s asks for: `target` then waits on
 * `source`. Cycles (and a contract on itself) are the hub's to refuse, with its own message.
 */
export function dependencyFor(source: string, target: string): { contract: string; dependency: Dependency } | { refused: string } {
  const [sourceKind, sourceId] = splitKey(source);
  const [targetKind, targetId] = splitKey(target);
  if (targetKind !== "contract") return { refused: `only contracts have dependencies: drop on a contract, not on artifact ${targetId}` };
  return {
    contract: targetId,
    dependency: sourceKind === "contract" ? { type: "contract", contractId: sourceId } : { type: "artifact", artifactId: sourceId },
  };
}

export const splitKey = (key: string): [ShownNode["kind"], string] => {
  const i = key.indexOf(":");
  return [key.slice(0, i) as ShownNode["kind"], key.slice(i + 1)];
};

/**
 * A signature of what the layout depends on: the nodes. When only states change nothing is laid out
 * again, and neither when only links change (a dependency drawn or removed), so the nodes just linked
 * stay where the person drew between them. New or removed nodes are laid out afresh.
 */
export const nodesSignature = (view: ShownView): string => view.nodes.map((n) => n.key).join(" ");
