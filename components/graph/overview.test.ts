import { describe, expect, it } from "vitest";
import { nextNode } from "./OverviewFocus.tsx";
import { boxPaths } from "./OverviewNodes.tsx";
import { box } from "./test-nodes.ts";

describe("the overview's keyboard steps", () => {
  const [a, right, farRight, below, hidden] = [box("a", 0, 0), box("right", 300, 20), box("far", 900, 0), box("below", 10, 200), box("hidden", 250, 0, true)];
  const nodes = [a, right, farRight, below, hidden];

  it("goes to the nearest shown box in the arrow's direction, sideways steps counting double", () => {
    expect(nextNode(nodes, a, [1, 0])?.id).toBe("right");
    expect(nextNode(nodes, a, [0, 1])?.id).toBe("below");
    expect(nextNode(nodes, right, [-1, 0])?.id).toBe("a");
    expect(nextNode(nodes, right, [1, 0])?.id).toBe("far");
  });

  it("finds nothing past the edge of the graph", () => {
    expect(nextNode(nodes, a, [0, -1])).toBeUndefined();
    expect(nextNode(nodes, a, [-1, 0])).toBeUndefined();
  });
});

describe("the overview's box paths", () => {
  it("draw shown boxes by class and bound them, leaving hidden ones out", () => {
    const paths = boxPaths([box("a", 0, 0), box("b", 300, 100), box("c", -500, -500, true)]);
    expect(paths.count).toBe(2);
    expect(paths.list).toEqual([{ c: "artifact", d: "M0,0h200v56h-200zM300,100h200v56h-200z" }]);
    expect(paths.bounds).toEqual({ x: 0, y: 0, width: 500, height: 156 });
  });

  it("bound nothing when every box is hidden", () => {
    expect(boxPaths([box("a", 0, 0, true)])).toEqual({ count: 0, list: [], bounds: { x: 0, y: 0, width: 0, height: 0 } });
  });
});
