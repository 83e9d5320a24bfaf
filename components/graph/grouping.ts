/**
 * Grouping the canvas: every node belongs to one group (its member, its contract or its type), and
 * a collapsed group is drawn as one node standing for all its members, with their links to the
 * rest of the graph drawn to it instead. A pure view of the graph, like the layout: the hub knows
 * nothing of groups.
 */
import type { ContractStatus } from "@/lib/api/contracts.ts";
import type { GraphEdge, GraphNode, GraphView } from "@/lib/api/graph.ts";

export const GROUP_BY = ["member", "contract", "type"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** One collapsed group: what it holds, counted so the box can say it without its members. */
export type GroupGraphNode = {
  kind: "group";
  key: string;
  id: string;
  by: GroupBy;
  contracts: number;
  artifacts: number;
  stale: number;
  states: Partial<Record<ContractStatus, number>>;
};
export type ShownNode = GraphNode | GroupGraphNode;
export type ShownView = { team: string; nodes: ShownNode[]; edges: GraphEdge[] };

export const groupKey = (name: string) => `group:${name}`;
/** Named so that no member, contract or type id (which never start with "(") can collide. */
export const NO_GROUP = { member: "(nobody)", contract: "(no contract)", contracts: "(contracts)", unpublished: "(unpublished)" };

/**
 * The group of every node. An artifact belongs to the member who published it (else to the
 * assignee of the contract expected to make it) and to the contract that makes it (else the first
 * that needs it); a contract, by type, to one group of all contracts.
 */
export function groupsOf(view: GraphView, by: GroupBy): Map<string, string> {
  const contracts = new Map(view.nodes.flatMap((n) => (n.kind === "contract" ? [[n.key, n] as const] : [])));
  const maker = new Map<string, string>();
  const user = new Map<string, string>();
  for (const e of view.edges) {
    if (e.kind === "output" && !maker.has(e.to)) maker.set(e.to, e.from);
    if (e.kind === "needs_artifact" && !user.has(e.from)) user.set(e.from, e.to);
  }
  const groups = new Map<string, string>();
  for (const n of view.nodes) {
    let name: string;
    if (by === "type") name = n.kind === "contract" ? NO_GROUP.contracts : (n.type ?? NO_GROUP.unpublished);
    else if (by === "member") name = n.kind === "contract" ? n.assignee : (n.publisher ?? contracts.get(maker.get(n.key) ?? "")?.assignee ?? NO_GROUP.member);
    else name = n.kind === "contract" ? n.id : (contracts.get(maker.get(n.key) ?? user.get(n.key) ?? "")?.id ?? NO_GROUP.contract);
    groups.set(n.key, name);
  }
  return groups;
}

/**
 * The view with every group not in `expanded` drawn as one node: edges into and out of it are
 * redrawn to the group node (once per pair of ends), edges inside it are dropped.
 */
export function collapse(view: GraphView, by: GroupBy, groups: ReadonlyMap<string, string>, expanded: ReadonlySet<string>): ShownView {
  const shown = new Map<string, string>();
  const boxes = new Map<string, GroupGraphNode>();
  const nodes: ShownNode[] = [];
  for (const n of view.nodes) {
    const name = groups.get(n.key)!;
    if (expanded.has(name)) {
      shown.set(n.key, n.key);
      nodes.push(n);
      continue;
    }
    const key = groupKey(name);
    shown.set(n.key, key);
    let box = boxes.get(key);
    if (!box) {
      box = { kind: "group", key, id: name, by, contracts: 0, artifacts: 0, stale: 0, states: {} };
      boxes.set(key, box);
      nodes.push(box);
    }
    if (n.kind === "contract") {
      box.contracts++;
      box.states[n.status] = (box.states[n.status] ?? 0) + 1;
    } else {
      box.artifacts++;
      if (n.stale) box.stale++;
    }
  }
  const seen = new Set<string>();
  const edges: GraphEdge[] = [];
  for (const e of view.edges) {
    const [from, to] = [shown.get(e.from), shown.get(e.to)];
    if (!from || !to || from === to || seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    edges.push(from === e.from && to === e.to ? e : { ...e, from, to });
  }
  return { team: view.team, nodes, edges };
}
