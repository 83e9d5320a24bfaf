import { describe, expect, it } from "vitest";
import type { GraphView } from "../../lib/api/graph.ts";
import {
  dependencyFor,
  flowEdges,
  flowNodes,
  HANDLE_SIZE,
  layoutNodesOf,
  NO_FILTERS,
  NODE_SIZE,
  nodesSignature,
  type CanvasNode,
  type Filters,
} from "./flow-elements.ts";
import { layoutGraph } from "./layout.ts";

const VIEW: GraphView = {
  team: "default",
  nodes: [
    {
      kind: "artifact",
      key: "artifact:schema",
      id: "schema",
      type: "schema-change",
      name: "schema",
      version: 2,
      latestVersion: 2,
      status: "active",
      stale: false,
      staleReasons: [],
      publisher: "alice",
    },
    {
      kind: "artifact",
      key: "artifact:spec",
      id: "spec",
      type: null,
      name: "spec",
      version: null,
      latestVersion: 0,
      status: "unpublished",
      stale: false,
      staleReasons: [],
      publisher: null,
    },
    {
      kind: "contract",
      key: "contract:build-api",
      id: "build-api",
      title: "Build the API",
      assignee: "bob",
      status: "pending",
      statusReason: null,
      priority: "normal",
    },
    { kind: "contract", key: "contract:setup", id: "setup", title: "Set up", assignee: "alice", status: "ready", statusReason: null, priority: "normal" },
  ],
  edges: [
    { from: "artifact:schema", to: "contract:build-api", kind: "needs_artifact" },
    { from: "contract:setup", to: "artifact:schema", kind: "output" },
    { from: "contract:setup", to: "contract:build-api", kind: "depends_on" },
  ],
};
const layout = layoutGraph(layoutNodesOf(VIEW), VIEW.edges);
const byId = (nodes: CanvasNode[]) => new Map(nodes.map((n) => [n.id, n]));
const filters = (f: Partial<Filters>): Filters => ({ ...NO_FILTERS, ...f });

describe("flowNodes", () => {
  it("gives every node its kind, laid-out position, size and handles, so nothing has to be measured", () => {
    const nodes = flowNodes(VIEW, layout, NO_FILTERS, null, new Map());
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ["artifact:schema", "artifact"],
      ["artifact:spec", "artifact"],
      ["contract:build-api", "contract"],
      ["contract:setup", "contract"],
    ]);
    const build = byId(nodes).get("contract:build-api")!;
    expect(build.position).toEqual(layout.positions.get("contract:build-api"));
    expect([build.width, build.height]).toEqual([NODE_SIZE.contract.width, NODE_SIZE.contract.height]);
    expect(build.handles).toEqual([
      {
        id: "in",
        type: "target",
        position: "top",
        x: NODE_SIZE.contract.width / 2 - HANDLE_SIZE / 2,
        y: -HANDLE_SIZE / 2,
        width: HANDLE_SIZE,
        height: HANDLE_SIZE,
      },
      {
        id: "out",
        type: "source",
        position: "bottom",
        x: NODE_SIZE.contract.width / 2 - HANDLE_SIZE / 2,
        y: NODE_SIZE.contract.height - HANDLE_SIZE / 2,
        width: HANDLE_SIZE,
        height: HANDLE_SIZE,
      },
    ]);
    expect(build.ariaLabel).toBe("contract build-api: Build the API, pending, assigned to bob");
    expect(byId(nodes).get("artifact:spec")!.ariaLabel).toBe("artifact spec (unpublished), unpublished");
  });

  it("hides by kind, by contract state and by artifact type (unpublished ones have their own)", () => {
    const hidden = (f: Partial<Filters>) =>
      flowNodes(VIEW, layout, filters(f), null, new Map())
        .filter((n) => n.hidden)
        .map((n) => n.id);
    expect(hidden({})).toEqual([]);
    expect(hidden({ kinds: new Set(["artifact"]) })).toEqual(["artifact:schema", "artifact:spec"]);
    expect(hidden({ states: new Set(["ready"]) })).toEqual(["contract:setup"]);
    expect(hidden({ types: new Set(["(unpublished)"]) })).toEqual(["artifact:spec"]);
  });

  it("keeps the objects of nodes that did not change, so only changed nodes re-render", () => {
    const first = flowNodes(VIEW, layout, NO_FILTERS, null, new Map());
    const moved: GraphView = {
      ...VIEW,
      nodes: VIEW.nodes.map((n) => (n.kind === "contract" && n.id === "build-api" ? { ...n, status: "ready" as const } : { ...n })),
    };
    const second = flowNodes(moved, layout, NO_FILTERS, "contract:setup", byId(first));
    const same = second.filter((n, i) => n === first[i]).map((n) => n.id);
    expect(same).toEqual(["artifact:schema", "artifact:spec"]);
    expect(byId(second).get("contract:setup")!.selected).toBe(true);
  });
});

describe("flowEdges", () => {
  it("hides the edges of hidden nodes, reusing the others", () => {
    const first = flowEdges(VIEW, new Set(), new Map());
    expect(first.map((e) => [e.id, e.sourceHandle, e.targetHandle, e.className])).toEqual([
      ["needs_artifact:artifact:schema->contract:build-api", "out", "in", "edge-needs_artifact"],
      ["output:contract:setup->artifact:schema", "out", "in", "edge-output"],
      ["depends_on:contract:setup->contract:build-api", "out", "in", "edge-depends_on"],
    ]);
    const second = flowEdges(VIEW, new Set(["artifact:schema"]), new Map(first.map((e) => [e.id, e])));
    expect(second.map((e) => !!e.hidden)).toEqual([true, true, false]);
    expect(second[2]).toBe(first[2]);
  });
});

describe("dependencyFor", () => {
  it("makes the contract dropped on depend on what the drag started from", () => {
    expect(dependencyFor("contract:setup", "contract:build-api")).toEqual({ contract: "build-api", dependency: { type: "contract", contractId: "setup" } });
    expect(dependencyFor("artifact:schema", "contract:setup")).toEqual({ contract: "setup", dependency: { type: "artifact", artifactId: "schema" } });
  });

  it("refuses a drop on an artifact, which has no dependencies, and leaves cycles to the hub", () => {
    expect(dependencyFor("contract:setup", "artifact:schema")).toEqual({
      refused: "only contracts have dependencies: drop on a contract, not on artifact schema",
    });
    expect(dependencyFor("contract:setup", "contract:setup")).toEqual({ contract: "setup", dependency: { type: "contract", contractId: "setup" } });
  });
});

describe("layout signatures", () => {
  it("keep the layout when a state or a link changes, not when nodes come or go", () => {
    const restated: GraphView = { ...VIEW, nodes: VIEW.nodes.map((n) => (n.kind === "contract" ? { ...n, status: "failed" as const } : n)) };
    expect(nodesSignature(restated)).toBe(nodesSignature(VIEW));
    const relinked = { ...VIEW, edges: VIEW.edges.slice(1) };
    expect(nodesSignature(relinked)).toBe(nodesSignature(VIEW));
    expect(nodesSignature({ ...VIEW, nodes: VIEW.nodes.slice(1) })).not.toBe(nodesSignature(VIEW));
  });
});
