/**
 * Layered layout for the canvas, as a pure function of the graph: edges point down, each rank is
 * a row, barycenter sweeps reduce crossings, and weakly connected parts are packed side by side.
 * Positions depend only on ids and edges, never on state, so live updates do not move nodes.
 *
 * Not dagre: @dagrejs/dagre 3.1.3 takes 3–6 s for 2,000 nodes (and overflows the stack on a
 * chain of 1,000); not elkjs: its layered algorithm took 4 s for 2,000 nodes and 18 s for 10,000
 * (docs/canvas.md#layout), where the canvas must draw 10,000 nodes in under 2 s. This takes about
 * 50 ms for 2,000 and 150 ms for 10,000 (cold), in O(sweeps · (V log V + E)), iteratively, so no
 * depth can overflow the stack.
 */
export type LayoutNode = { id: string; width: number; height: number };
export type LayoutEdge = { from: string; to: string };
export type LayoutOptions = {
  /** Vertical space between rows. */
  rankGap: number;
  /** Horizontal space between neighbours in a row. */
  nodeGap: number;
  /** Space between separately packed parts. */
  partGap: number;
  /** Barycenter sweeps (alternately down and up). */
  sweeps: number;
};
export type Point = { x: number; y: number };
/** Top-left corners, and the size of the whole drawing. */
export type Layout = { positions: Map<string, Point>; width: number; height: number };

export const DEFAULT_LAYOUT: LayoutOptions = { rankGap: 56, nodeGap: 28, partGap: 80, sweeps: 6 };

/** Math.min and Math.max without spreading: a part can have more members than a call has room for arguments. */
const least = (values: number[]): number => values.reduce((m, v) => (v < m ? v : m), Infinity);
const most = (values: number[]): number => values.reduce((m, v) => (v > m ? v : m), -Infinity);

type Graph = { size: number; down: number[][]; up: number[][]; undirected: number[][] };

export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], options: LayoutOptions = DEFAULT_LAYOUT): Layout {
  const g = acyclic(nodes, edges);
  const rank = ranks(g);
  const parts = components(g).map((members) => fold(layoutPart(members, g, rank, nodes, options), nodes, options));
  return pack(parts, nodes, options);
}

/** Adjacency with self-loops, duplicates and unknown ends dropped, and back edges (found by DFS) turned around. */
function acyclic(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Graph {
  const size = nodes.length;
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const out: number[][] = Array.from({ length: size }, () => []);
  const undirected: number[][] = Array.from({ length: size }, () => []);
  const seen = new Set<number>();
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b || seen.has(a * size + b)) continue;
    seen.add(a * size + b);
    out[a].push(b);
    undirected[a].push(b);
    undirected[b].push(a);
  }
  const down: number[][] = Array.from({ length: size }, () => []);
  const up: number[][] = Array.from({ length: size }, () => []);
  const add = (a: number, b: number) => (down[a].push(b), up[b].push(a));
  // 0 unvisited, 1 on the DFS path, 2 done.
  const state = new Uint8Array(size);
  for (let root = 0; root < size; root++) {
    if (state[root]) continue;
    const stack: Array<[number, number]> = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, next] = top;
      if (next === out[v].length) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1]++;
      const w = out[v][next];
      if (state[w] === 1) add(w, v);
      else {
        add(v, w);
        if (state[w] === 0) {
          state[w] = 1;
          stack.push([w, 0]);
        }
      }
    }
  }
  return { size, down, up, undirected };
}

/**
 * Longest path from the sources, then each source moved down to just above its nearest
 * consumer: an input used only deep in a chain sits next to its use, not in the top row.
 */
function ranks(g: Graph): Int32Array {
  const rank = new Int32Array(g.size);
  const waiting = g.up.map((u) => u.length);
  const order: number[] = [];
  for (let v = 0; v < g.size; v++) if (waiting[v] === 0) order.push(v);
  for (let i = 0; i < order.length; i++) {
    const v = order[i];
    for (const w of g.down[v]) {
      rank[w] = Math.max(rank[w], rank[v] + 1);
      if (--waiting[w] === 0) order.push(w);
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i];
    if (g.up[v].length === 0 && g.down[v].length > 0) rank[v] = least(g.down[v].map((w) => rank[w])) - 1;
  }
  return rank;
}

/** Weakly connected parts, each in node order, ordered by their first node. */
function components(g: Graph): number[][] {
  const part = new Int32Array(g.size).fill(-1);
  const parts: number[][] = [];
  for (let root = 0; root < g.size; root++) {
    if (part[root] >= 0) continue;
    const members = [root];
    part[root] = parts.length;
    for (let i = 0; i < members.length; i++) {
      for (const w of g.undirected[members[i]]) {
        if (part[w] < 0) {
          part[w] = parts.length;
          members.push(w);
        }
      }
    }
    parts.push(members.sort((a, b) => a - b));
  }
  return parts;
}

type Part = { members: number[]; x: Float64Array; y: Float64Array; width: number; height: number };

function layoutPart(members: number[], g: Graph, rank: Int32Array, nodes: readonly LayoutNode[], o: LayoutOptions): Part {
  const top = least(members.map((v) => rank[v]));
  const rows: number[][] = [];
  for (const v of members) (rows[rank[v] - top] ??= []).push(v);
  for (let r = 0; r < rows.length; r++) rows[r] ??= [];
  const slot = new Float64Array(g.size);
  const renumber = (row: number[]) => row.forEach((v, i) => (slot[v] = i));
  rows.forEach(renumber);
  const mean = (of: number[], value: (v: number) => number) => of.reduce((s, v) => s + value(v), 0) / of.length;

  // Sort keys in an array by node, not a Map per row: the sweeps are most of the layout's time.
  const key = new Float64Array(g.size);
  for (let sweep = 0; sweep < o.sweeps; sweep++) {
    const downward = sweep % 2 === 0;
    for (let k = 1; k < rows.length; k++) {
      const row = rows[downward ? k : rows.length - 1 - k];
      for (const v of row) {
        const near = downward ? g.up[v] : g.down[v];
        key[v] = near.length ? mean(near, (w) => slot[w]) : slot[v];
      }
      row.sort((a, b) => key[a] - key[b] || slot[a] - slot[b]);
      renumber(row);
    }
  }

  const width = (v: number) => nodes[v].width;
  const x = new Float64Array(g.size);
  const center = (v: number) => x[v] + width(v) / 2;
  for (const row of rows) {
    // A parent keeps its spine child straight below it, so chains run straight down instead of
    // drifting sideways; the other children give way around it.
    const inRow = new Set(row);
    const spine = new Map<number, number>();
    for (const u of new Set(row.flatMap((v) => g.up[v]))) {
      const child = spineOf(
        g.down[u].filter((v) => inRow.has(v)),
        g,
      );
      if (child !== undefined) spine.set(u, child);
    }
    const below = groupParents(spine);
    const wanted = row.map((v) => {
      const parents = below.get(v) ?? g.up[v];
      return { x: parents.length ? mean(parents, center) - width(v) / 2 : NaN, weight: below.has(v) ? SPINE_WEIGHT : 1 };
    });
    placeRow(row, wanted, width, o.nodeGap, x);
  }
  // Sources have no parents to line up with: put them over their spine child, or centre them over
  // their children, as far as their neighbours leave room.
  for (let r = rows.length - 1; r >= 0; r--) {
    const row = rows[r];
    row.forEach((v, i) => {
      if (g.up[v].length || !g.down[v].length) return;
      const child = spineOf(g.down[v], g);
      const min = i > 0 ? x[row[i - 1]] + width(row[i - 1]) + o.nodeGap : -Infinity;
      const max = i < row.length - 1 ? x[row[i + 1]] - o.nodeGap - width(v) : Infinity;
      x[v] = Math.min(max, Math.max(min, (child === undefined ? mean(g.down[v], center) : center(child)) - width(v) / 2));
    });
  }

  const y = new Float64Array(g.size);
  let offset = 0;
  for (const row of rows) {
    for (const v of row) y[v] = offset;
    offset += Math.max(0, most(row.map((v) => nodes[v].height))) + o.rankGap;
  }
  const left = least(members.map((v) => x[v]));
  for (const v of members) x[v] -= left;
  return { members, x, y, width: most(members.map((v) => x[v] + width(v))), height: offset - o.rankGap };
}

/** How much more a spine child's wish counts than another's: enough to win, not to ignore the rest. */
const SPINE_WEIGHT = 100;

/** The child that leads furthest on (strictly more children than its siblings), if one does. */
function spineOf(children: number[], g: Graph): number | undefined {
  let best: number | undefined;
  let tie = false;
  for (const v of children) {
    const d = g.down[v].length;
    if (best === undefined || d > g.down[best].length) [best, tie] = [v, false];
    else if (d === g.down[best].length) tie = true;
  }
  return tie ? undefined : best;
}

/** child → the parents that chose it as their spine. */
function groupParents(spine: Map<number, number>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [parent, child] of spine) out.set(child, [...(out.get(child) ?? []), parent]);
  return out;
}

/**
 * Puts a row's nodes in their order, each as near its wanted x as the others allow: touching
 * nodes form blocks placed at the weighted mean of what their members want (least weighted
 * displacement). A node that wants nothing goes right after its left neighbour.
 */
function placeRow(row: number[], wanted: Array<{ x: number; weight: number }>, width: (v: number) => number, gap: number, x: Float64Array): void {
  // `sum` is Σ weight · (wanted left − offset in the block), so a block's best left is sum / weight.
  type Block = { first: number; last: number; sum: number; weight: number; span: number; left: number };
  const blocks: Block[] = [];
  row.forEach((v, i) => {
    const previous = blocks[blocks.length - 1];
    const want = Number.isNaN(wanted[i].x) ? (previous ? previous.left + previous.span + gap : 0) : wanted[i].x;
    const w = wanted[i].weight;
    let block: Block = { first: i, last: i, sum: w * want, weight: w, span: width(v), left: want };
    for (let p = blocks[blocks.length - 1]; p && p.left + p.span + gap > block.left; p = blocks[blocks.length - 1]) {
      blocks.pop();
      const shift = p.span + gap;
      const sum = p.sum + block.sum - block.weight * shift;
      const weight = p.weight + block.weight;
      block = { first: p.first, last: block.last, sum, weight, span: shift + block.span, left: sum / weight };
    }
    blocks.push(block);
  });
  for (const b of blocks) {
    let at = b.left;
    for (let i = b.first; i <= b.last; i++) {
      x[row[i]] = at;
      at += width(row[i]) + gap;
    }
  }
}

/** The shape a part is folded towards: a landscape screen's. */
const ASPECT = 1.6;

/**
 * A part far wider than tall (a team of many parallel streams, linked side to side, is one such part
 * a few rows deep) cut into vertical slices stacked one under the other, like lines of text, so a
 * fitted view is not a thin strip at a zoom where nothing can be read. Edges crossing a cut run long.
 */
function fold(part: Part, nodes: readonly LayoutNode[], o: LayoutOptions): Part {
  const bands = Math.round(Math.sqrt(part.width / (ASPECT * (part.height + o.partGap))));
  if (bands < 2) return part;
  const bandWidth = part.width / bands;
  const bandHeight = part.height + o.partGap;
  let width = 0;
  for (const v of part.members) {
    const band = Math.min(bands - 1, Math.floor(part.x[v] / bandWidth));
    part.x[v] -= band * bandWidth;
    part.y[v] += band * bandHeight;
    width = Math.max(width, part.x[v] + nodes[v].width);
  }
  return { ...part, width, height: bands * bandHeight - o.partGap };
}

/** Shelf packing, largest parts first: rows no wider than the widest part or a squarish bound. */
function pack(parts: Part[], nodes: readonly LayoutNode[], o: LayoutOptions): Layout {
  const positions = new Map<string, Point>();
  if (parts.length === 0) return { positions, width: 0, height: 0 };
  const sorted = [...parts].sort((a, b) => b.members.length - a.members.length || a.members[0] - b.members[0]);
  const area = sorted.reduce((s, p) => s + (p.width + o.partGap) * (p.height + o.partGap), 0);
  const limit = Math.max(most(sorted.map((p) => p.width)), Math.sqrt(area) * 1.6);
  let [left, top, shelf, width] = [0, 0, 0, 0];
  for (const p of sorted) {
    if (left > 0 && left + p.width > limit) [left, top, shelf] = [0, top + shelf + o.partGap, 0];
    for (const v of p.members) positions.set(nodes[v].id, { x: left + p.x[v], y: top + p.y[v] });
    width = Math.max(width, left + p.width);
    shelf = Math.max(shelf, p.height);
    left += p.width + o.partGap;
  }
  return { positions, width, height: top + shelf };
}
