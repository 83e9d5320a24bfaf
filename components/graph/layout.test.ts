import { describe, expect, it } from "vitest";
import { DEFAULT_LAYOUT, layoutGraph, type Layout, type LayoutEdge, type LayoutNode } from "./layout.ts";

const W = 200;
const H = 60;
const boxes = (...ids: string[]): LayoutNode[] => ids.map((id) => ({ id, width: W, height: H }));
const edges = (...pairs: string[]): LayoutEdge[] => pairs.map((p) => p.split("→")).map(([from, to]) => ({ from, to }));
const at = (l: Layout, id: string) => l.positions.get(id)!;
const centre = (l: Layout, id: string) => at(l, id).x + W / 2;

/** Every pair of nodes is apart by at least the gap in a row, or in different rows. */
function expectNoOverlap(l: Layout, nodes: LayoutNode[]) {
  const byRow = new Map<number, LayoutNode[]>();
  for (const n of nodes) byRow.set(at(l, n.id).y, [...(byRow.get(at(l, n.id).y) ?? []), n]);
  for (const row of byRow.values()) {
    const sorted = row.map((n) => at(l, n.id).x).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(W + DEFAULT_LAYOUT.nodeGap - 1e-6);
  }
}

/** A chain of `n` nodes in `k` strands, each node also fed by the previous node of the next strand. */
function lattice(n: number, k: number) {
  const nodes = boxes(...Array.from({ length: n }, (_, i) => `n${i}`));
  const links: LayoutEdge[] = [];
  for (let i = k; i < n; i++) {
    links.push({ from: `n${i - k}`, to: `n${i}` });
    if ((i + 1) % k) links.push({ from: `n${i - k + 1}`, to: `n${i}` });
  }
  return { nodes, links };
}

describe("layoutGraph", () => {
  it("puts a chain in one column, top to bottom", () => {
    const l = layoutGraph(boxes("a", "b", "c"), edges("a→b", "b→c"));
    expect([at(l, "a").y, at(l, "b").y, at(l, "c").y]).toEqual([0, H + DEFAULT_LAYOUT.rankGap, 2 * (H + DEFAULT_LAYOUT.rankGap)]);
    expect(new Set([centre(l, "a"), centre(l, "b"), centre(l, "c")]).size).toBe(1);
    expect([l.width, l.height]).toEqual([W, 3 * H + 2 * DEFAULT_LAYOUT.rankGap]);
  });

  it("points every edge of a DAG downwards and never overlaps two nodes", () => {
    const { nodes, links } = lattice(60, 4);
    const l = layoutGraph(nodes, links);
    for (const e of links) expect(at(l, e.from).y).toBeLessThan(at(l, e.to).y);
    expectNoOverlap(l, nodes);
  });

  it("centres a parent over its children and children under their parent", () => {
    const l = layoutGraph(boxes("root", "left", "right"), edges("root→left", "root→right"));
    expect(centre(l, "root")).toBeCloseTo((centre(l, "left") + centre(l, "right")) / 2, 6);
    const m = layoutGraph(boxes("a", "b", "join"), edges("a→join", "b→join"));
    expect(centre(m, "join")).toBeCloseTo((centre(m, "a") + centre(m, "b")) / 2, 6);
  });

  it("keeps a chain straight when each step also has a side output", () => {
    const ids = Array.from({ length: 10 }, (_, i) => [`c${i}`, `a${i}`]).flat();
    const links = Array.from({ length: 10 }, (_, i) => [`c${i}→a${i}`, ...(i ? [`c${i - 1}→c${i}`] : [])]).flat();
    const l = layoutGraph(boxes(...ids), edges(...links));
    const spine = Array.from({ length: 10 }, (_, i) => centre(l, `c${i}`));
    expect(Math.max(...spine) - Math.min(...spine)).toBeLessThan(W / 4);
    expectNoOverlap(l, boxes(...ids));
  });

  it("uncrosses edges whose ends start out in opposite orders", () => {
    // Given in the order a, b / c, d, the edges a→d and b→c cross until the sweeps swap a row.
    const l = layoutGraph(boxes("a", "b", "c", "d", "top"), edges("top→a", "top→b", "a→d", "b→c"));
    expect(Math.sign(at(l, "a").x - at(l, "b").x)).toBe(Math.sign(at(l, "d").x - at(l, "c").x));
  });

  it("moves an input down to the row just above where it is used", () => {
    const l = layoutGraph(boxes("c1", "c2", "c3", "input"), edges("c1→c2", "c2→c3", "input→c3"));
    expect(at(l, "input").y).toBe(at(l, "c2").y);
    expect(at(l, "input").y).toBeLessThan(at(l, "c3").y);
  });

  it("lays out cycles (turning one edge around) instead of looping", () => {
    const nodes = boxes("x", "y", "z");
    const l = layoutGraph(nodes, edges("x→y", "y→z", "z→x"));
    expect(l.positions.size).toBe(3);
    expect(new Set(nodes.map((n) => at(l, n.id).y)).size).toBe(3);
  });

  it("ignores self-loops, repeated edges and edges to unknown nodes", () => {
    const l = layoutGraph(boxes("a", "b"), edges("a→a", "a→b", "a→b", "a→ghost", "ghost→b"));
    expect([...l.positions.keys()]).toEqual(["a", "b"]);
    expect(at(l, "b").y).toBe(H + DEFAULT_LAYOUT.rankGap);
  });

  it("packs separate parts side by side without overlap, the largest first", () => {
    const nodes = boxes("lone", "p1", "p2", "q1", "q2", "q3");
    const l = layoutGraph(nodes, edges("p1→p2", "q1→q2", "q2→q3"));
    expect(at(l, "q1")).toEqual({ x: 0, y: 0 });
    const rect = (ids: string[]) => ({
      left: Math.min(...ids.map((i) => at(l, i).x)),
      right: Math.max(...ids.map((i) => at(l, i).x + W)),
      top: Math.min(...ids.map((i) => at(l, i).y)),
      bottom: Math.max(...ids.map((i) => at(l, i).y + H)),
    });
    const parts = [rect(["lone"]), rect(["p1", "p2"]), rect(["q1", "q2", "q3"])];
    for (const a of parts)
      for (const b of parts) {
        if (a === b) continue;
        expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
      }
  });

  it("depends on the graph only: the same input gives the same drawing", () => {
    const { nodes, links } = lattice(40, 3);
    expect(layoutGraph(nodes, links)).toEqual(layoutGraph(nodes, links));
    expect(layoutGraph([], [])).toEqual({ positions: new Map(), width: 0, height: 0 });
  });

  it("handles a chain of 1,000 without overflowing the stack", () => {
    const nodes = boxes(...Array.from({ length: 1000 }, (_, i) => `c${i}`));
    const l = layoutGraph(
      nodes,
      nodes.slice(1).map((n, i) => ({ from: nodes[i].id, to: n.id })),
    );
    expect(at(l, "c999").y).toBe(999 * (H + DEFAULT_LAYOUT.rankGap));
  });

  it("lays out 2,000 nodes and 4,000 edges in well under the canvas's budget", () => {
    const { nodes, links } = lattice(2000, 50);
    // CPU time, not wall time: the tests share two cores with hubs and browsers, whose work is not the layout's.
    const started = process.cpuUsage();
    const l = layoutGraph(nodes, links);
    const { user, system } = process.cpuUsage(started);
    expect(l.positions.size).toBe(2000);
    expectNoOverlap(l, nodes);
    expect((user + system) / 1000).toBeLessThan(250);
  });

  it("folds a part far wider than tall into stacked bands, without overlaps", () => {
    // 200 streams of 3, each linked to its neighbour: one part 200 nodes wide and 3 rows deep.
    const nodes = boxes(...Array.from({ length: 600 }, (_, i) => `n${i}`));
    const links: LayoutEdge[] = [];
    for (let k = 0; k < 200; k++) {
      links.push({ from: `n${k * 3}`, to: `n${k * 3 + 1}` }, { from: `n${k * 3 + 1}`, to: `n${k * 3 + 2}` });
      if (k) links.push({ from: `n${(k - 1) * 3}`, to: `n${k * 3 + 1}` });
    }
    const l = layoutGraph(nodes, links);
    expect(l.width / l.height).toBeGreaterThan(0.8);
    expect(l.width / l.height).toBeLessThan(3.2);
    const seen = new Set<string>();
    for (const n of nodes) {
      const p = at(l, n.id);
      const cell = `${Math.round(p.y)}:${Math.floor(p.x / (W + DEFAULT_LAYOUT.nodeGap))}`;
      expect(seen.has(cell)).toBe(false);
      seen.add(cell);
    }
    expectNoOverlap(l, nodes);
  });
});
