/**
 * What the canvas asks of a graph besides drawing it: which nodes a search names, and a node's
 * lineage (what it comes from and what comes from it). Built once per view, as plain adjacency
 * and one lowercased text per node, so a search over 10,000 nodes is one pass of `includes` and a
 * lineage is a breadth-first walk over only the nodes it reaches.
 */
import type { GraphEdge, GraphNode, GraphView } from "@/lib/api/graph.ts";

export type GraphIndex = {
  nodes: ReadonlyMap<string, GraphNode>;
  up: ReadonlyMap<string, readonly string[]>;
  down: ReadonlyMap<string, readonly string[]>;
  /** Node keys in view order, with what a search looks in: id, title or name, assignee, type, publisher. */
  text: ReadonlyArray<readonly [string, string]>;
};

export function indexGraph(view: GraphView): GraphIndex {
  const up = new Map<string, string[]>();
  const down = new Map<string, string[]>();
  for (const e of view.edges) {
    (down.get(e.from) ?? down.set(e.from, []).get(e.from)!).push(e.to);
    (up.get(e.to) ?? up.set(e.to, []).get(e.to)!).push(e.from);
  }
  const text = view.nodes.map(
    (n) =>
      [n.key, (n.kind === "contract" ? `${n.id} ${n.title} ${n.assignee}` : `${n.id} ${n.name} ${n.type ?? ""} ${n.publisher ?? ""}`).toLowerCase()] as const,
  );
  return { nodes: new Map(view.nodes.map((n) => [n.key, n])), up, down, text };
}

/**
 * The nodes a query names, best first: an exact id, then ids starting with the query, then ids
 * containing it, then any other text containing it (ties keep view order). Every word of the
 * query must occur, so "api ann" finds ann's API contracts.
 */
export function searchGraph(index: GraphIndex, query: string, limit = 20): GraphNode[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const [first] = words;
  const ranked: Array<[number, number, string]> = [];
  index.text.forEach(([key, text], order) => {
    if (!words.every((w) => text.includes(w))) return;
    const id = index.nodes.get(key)!.id.toLowerCase();
    const rank = id === first ? 0 : id.startsWith(first) ? 1 : id.includes(first) ? 2 : 3;
    ranked.push([rank, order, key]);
  });
  ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return ranked.slice(0, limit).map(([, , key]) => index.nodes.get(key)!);
}

/** How far a lineage reaches each way; `Infinity` for all of it. */
export type Depth = number;

/**
 * A node's lineage up to `depth` steps each way: the node, everything upstream of it (edges
 * followed backwards) and everything downstream (forwards), but not the other branches of its
 * ancestors, which would soon be the whole graph.
 */
export function lineageOf(index: GraphIndex, key: string, depth: Depth): Set<string> {
  const keep = new Set<string>();
  if (!index.nodes.has(key)) return keep;
  keep.add(key);
  for (const next of [index.up, index.down]) {
    let frontier = [key];
    const seen = new Set(frontier);
    for (let step = 0; step < depth && frontier.length; step++) {
      const reached: string[] = [];
      for (const v of frontier) {
        for (const w of next.get(v) ?? []) {
          if (seen.has(w)) continue;
          seen.add(w);
          keep.add(w);
          reached.push(w);
        }
      }
      frontier = reached;
    }
  }
  return keep;
}

/** The view with only the nodes in `keep`, and the edges between them. */
export function subView(view: GraphView, keep: ReadonlySet<string>): GraphView {
  const edges: GraphEdge[] = view.edges.filter((e) => keep.has(e.from) && keep.has(e.to));
  return { team: view.team, nodes: view.nodes.filter((n) => keep.has(n.key)), edges };
}
