import { describe, expect, it } from "vitest";
import type { GraphView } from "../../lib/api/graph.ts";
import { layoutNodesOf } from "./flow-elements.ts";
import { collapse, FRAME_HEAD, FRAME_PAD, groupsOf, layoutGrouped, NO_GROUP } from "./grouping.ts";

const VIEW: GraphView = {
  team: "t",
  nodes: [
    { kind: "contract", key: "contract:a", id: "a", title: "A", assignee: "ann", status: "completed", statusReason: null, priority: "normal" },
    { kind: "contract", key: "contract:b", id: "b", title: "B", assignee: "ben", status: "failed", statusReason: "no", priority: "normal" },
    { kind: "contract", key: "contract:c", id: "c", title: "C", assignee: "ann", status: "ready", statusReason: null, priority: "normal" },
    ...(["schema", "spec", "loose"] as const).map((id) => ({
      kind: "artifact" as const,
      key: `artifact:${id}`,
      id,
      type: id === "loose" ? null : "custom",
      name: id,
      version: id === "loose" ? null : 1,
      latestVersion: id === "loose" ? 0 : 1,
      status: id === "loose" ? ("unpublished" as const) : ("active" as const),
      stale: id === "spec",
      staleReasons: [],
      publisher: id === "spec" ? "cy" : null,
    })),
  ],
  edges: [
    { from: "contract:a", to: "artifact:schema", kind: "output" },
    { from: "artifact:schema", to: "contract:b", kind: "needs_artifact" },
    { from: "contract:a", to: "contract:c", kind: "depends_on" },
    { from: "contract:b", to: "artifact:spec", kind: "output" },
    { from: "artifact:schema", to: "contract:c", kind: "needs_artifact" },
  ],
};

describe("groupsOf", () => {
  it("puts an artifact with its publisher, else with the assignee of the contract that makes it", () => {
    expect(Object.fromEntries(groupsOf(VIEW, "member"))).toEqual({
      "contract:a": "ann",
      "contract:b": "ben",
      "contract:c": "ann",
      "artifact:schema": "ann",
      "artifact:spec": "cy",
      "artifact:loose": NO_GROUP.member,
    });
  });
  it("puts an artifact with the contract that makes it, and every contract in its own group", () => {
    expect(Object.fromEntries(groupsOf(VIEW, "contract"))).toMatchObject({
      "contract:a": "a",
      "artifact:schema": "a",
      "artifact:spec": "b",
      "artifact:loose": NO_GROUP.contract,
    });
  });
  it("groups artifacts by type and contracts together", () => {
    expect(Object.fromEntries(groupsOf(VIEW, "type"))).toMatchObject({
      "contract:b": NO_GROUP.contracts,
      "artifact:spec": "custom",
      "artifact:loose": NO_GROUP.unpublished,
    });
  });
});

describe("collapse", () => {
  const groups = groupsOf(VIEW, "member");
  it("draws a collapsed group as one node counting its members, with its outside links redrawn to it once", () => {
    const shown = collapse(VIEW, "member", groups, new Set(["ben"]));
    expect(shown.nodes.map((n) => n.key)).toEqual(["group:ann", "contract:b", "group:cy", `group:${NO_GROUP.member}`]);
    expect(shown.nodes[0]).toEqual({
      kind: "group",
      key: "group:ann",
      id: "ann",
      by: "member",
      contracts: 2,
      artifacts: 1,
      stale: 0,
      states: { completed: 1, ready: 1 },
    });
    // a→schema, a→c and schema→c are inside ann's group; schema→b and b→spec cross.
    expect(shown.edges.map((e) => `${e.from}>${e.to}`)).toEqual(["group:ann>contract:b", "contract:b>group:cy"]);
  });
  it("draws everything as it is when every group is expanded", () => {
    const all = collapse(VIEW, "member", groups, new Set(groups.values()));
    expect(all.nodes).toEqual(VIEW.nodes);
    expect(all.edges).toEqual(VIEW.edges);
  });
});

describe("layoutGrouped", () => {
  const groups = groupsOf(VIEW, "member");
  it("boxes each expanded group's members in a frame, apart from the other frames and groups", () => {
    const shown = collapse(VIEW, "member", groups, new Set(["ann", "ben"]));
    const sizes = layoutNodesOf(shown);
    const l = layoutGrouped(shown, groups, sizes);
    expect(l.frames.map((f) => f.name).sort()).toEqual(["ann", "ben"]);
    const box = (id: string) => {
      const p = l.positions.get(id)!;
      const s = sizes.find((n) => n.id === id)!;
      return { x: p.x, y: p.y, width: s.width, height: s.height };
    };
    const inside = (a: { x: number; y: number; width: number; height: number }, f: { x: number; y: number; width: number; height: number }) =>
      a.x >= f.x && a.y >= f.y && a.x + a.width <= f.x + f.width && a.y + a.height <= f.y + f.height;
    for (const n of shown.nodes) {
      const frame = l.frames.find((f) => f.name === groups.get(n.key));
      if (frame) expect(inside(box(n.key), frame), n.key).toBe(true);
    }
    // Names sit above the members, and nothing else is in a frame.
    for (const f of l.frames) {
      for (const n of shown.nodes.filter((m) => groups.get(m.key) === f.name)) expect(box(n.key).y).toBeGreaterThanOrEqual(f.y + FRAME_HEAD);
      for (const n of shown.nodes.filter((m) => groups.get(m.key) !== f.name)) expect(inside(box(n.key), f)).toBe(false);
      expect(f.width).toBeGreaterThanOrEqual(2 * FRAME_PAD);
    }
    const [a, b] = l.frames;
    expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
  });
});
