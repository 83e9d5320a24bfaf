/**
 * Grouping the canvas: every node belongs to one group (its member, its contract or its type), and
 * a collapsed group is drawn as one node standing for all its members, with their links to the
 * rest of the graph drawn to it instead. A pure view of the graph, like the layout: the hub knows
 * nothing of groups.
 */
import type { ContractStatus } from "@/lib/api/contracts.ts";
import type { GraphEdge, GraphNode, GraphView } from "@/lib/api/graph.ts";
import { layoutGraph, type Layout, type LayoutEdge, type LayoutNode, type Point } from "./layout.ts";

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

/** An expanded group's box around its members, in flow coordinates. */
export type Frame = { name: string; x: number; y: number; width: number; height: number };
export type GroupedLayout = Layout & { frames: Frame[] };
/** Room inside a frame: around its members, and above them for its name. */
export const FRAME_PAD = 24;
export const FRAME_HEAD = 40;

/**
 * A compound layout of a grouped view: each expanded group's members laid out on their own and boxed
 * in a frame, then the frames and the collapsed groups laid out together by the links between groups.
 * Members of a group so stay together, where one layout of everything would scatter them.
 */
export function layoutGrouped(view: ShownView, groups: ReadonlyMap<string, string>, sizes: readonly LayoutNode[]): GroupedLayout {
  const size = new Map(sizes.map((s) => [s.id, s]));
  const unitOf = (key: string) => (groups.has(key) ? `frame:${groups.get(key)}` : key);
  const members = new Map<string, LayoutNode[]>();
  for (const n of view.nodes) if (n.kind !== "group") (members.get(unitOf(n.key)) ?? members.set(unitOf(n.key), []).get(unitOf(n.key))!).push(size.get(n.key)!);
  const inner = new Map<string, Layout>();
  for (const [unit, nodes] of members) {
    const keys = new Set(nodes.map((n) => n.id));
    inner.set(
      unit,
      layoutGraph(
        nodes,
        view.edges.filter((e) => keys.has(e.from) && keys.has(e.to)),
      ),
    );
  }
  const units: LayoutNode[] = view.nodes.flatMap((n) => (n.kind === "group" ? [size.get(n.key)!] : []));
  for (const [unit, l] of inner) units.push({ id: unit, width: l.width + 2 * FRAME_PAD, height: l.height + FRAME_HEAD + FRAME_PAD });
  const links: LayoutEdge[] = view.edges.map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) })).filter((e) => e.from !== e.to);
  const outer = layoutGraph(units, links);
  const positions = new Map<string, Point>();
  const frames: Frame[] = [];
  for (const u of units) {
    const at = outer.positions.get(u.id)!;
    const l = inner.get(u.id);
    if (!l) {
      positions.set(u.id, at);
      continue;
    }
    frames.push({ name: u.id.slice("frame:".length), x: at.x, y: at.y, width: u.width, height: u.height });
    for (const [key, p] of l.positions) positions.set(key, { x: at.x + FRAME_PAD + p.x, y: at.y + FRAME_HEAD + p.y });
  }
  return { positions, width: outer.width, height: outer.height, frames };
}
