import { describe, expect, it } from "vitest";
import { carding, CHUNK, inView, isSettled, mounting, nearestFirst, released, releasedAll, SETTLED, uncarding, type Staging } from "./staging.ts";
import { box } from "./test-nodes.ts";

/** A row of `count` boxes 300 apart starting at x = 0, y = 0. */
const row = (count: number) => Array.from({ length: count }, (_, i) => box(`n${i}`, i * 300, 0));

/** Steps until settled, each step's state. */
function steps(s: Staging): Staging[] {
  const seen = [s];
  while (!isSettled(seen[seen.length - 1])) seen.push(released(seen[seen.length - 1]));
  return seen;
}

describe("the staging of a zoom crossing", () => {
  it("finds the boxes that meet the view, as xyflow draws them, and orders them the nearest to its middle first", () => {
    const nodes = [
      box("far-left", -2000, 0),
      box("left", 10, 0),
      box("middle", 450, 20),
      box("right", 800, 0),
      box("hidden", 450, 0, true),
      box("below", 450, 5000),
    ];
    const ids = (t: readonly [number, number, number]) => nearestFirst(inView(nodes, t, 1000, 600), t, 1000, 600);
    // Zoom 1 at the origin: the view is x 0…1000, y 0…600.
    expect(ids([0, 0, 1])).toEqual(["middle", "left", "right"]);
    // Zoom 0.5 moved 500 px right: the view is x −1000…1000, y 0…1200.
    expect(ids([500, 0, 0.5])).toEqual(["left", "middle", "right"]);
  });

  it("counts a box touching the view by a pixel, and not one beside it", () => {
    expect(inView([box("a-pixel-in", -199, 0)], [0, 0, 1], 1000, 600).map((n) => n.id)).toEqual(["a-pixel-in"]);
    expect(inView([box("beside", -200, 0)], [0, 0, 1], 1000, 600)).toEqual([]);
  });

  it("mounts a first chunk at the crossing, then a chunk per step, and settles", () => {
    const inView = row(CHUNK * 2 + 5).map((n) => n.id);
    const staged = steps(mounting(inView));
    expect(staged[0].unmounted).toEqual(inView.slice(CHUNK));
    expect(staged.map((s) => s.unmounted.length)).toEqual([CHUNK + 5, 5, 0]);
    expect(staged.every((s) => s.compact.length === 0)).toBe(true);
    expect(mounting(inView.slice(0, CHUNK))).toEqual(SETTLED);
  });

  it("makes cards of the mounted nodes a chunk per step, after the unmounted ones are mounted", () => {
    const inView = row(CHUNK * 3).map((n) => n.id);
    // Mid-mounting, only the first chunk is on the page; the unmounted wait for their turn and come as cards.
    const crossing = carding(mounting(inView), inView.slice(0, CHUNK));
    expect(crossing.carded).toEqual(inView.slice(0, CHUNK));
    expect(crossing.compact).toEqual([]);
    const settledFirst = carding(SETTLED, inView);
    expect(settledFirst.carded).toEqual(inView.slice(0, CHUNK));
    const staged = steps(settledFirst);
    expect(staged.map((s) => s.carded)).toEqual([inView.slice(0, CHUNK), inView.slice(CHUNK, 2 * CHUNK), inView.slice(2 * CHUNK)]);
    // Every node in view was made a card exactly once.
    expect(staged.flatMap((s) => s.carded).sort()).toEqual([...inView].sort());
  });

  it("releases everything at once when the nodes change, measuring every node held as a box", () => {
    const ids = row(CHUNK * 3).map((n) => n.id);
    const all = releasedAll(released(carding(SETTLED, ids)));
    expect(isSettled(all)).toBe(true);
    expect(all.carded).toEqual(ids.slice(CHUNK));
    expect(releasedAll(mounting(ids))).toEqual(SETTLED);
  });

  it("holds nothing back as boxes once zoomed out of cards again", () => {
    const inView = row(CHUNK * 2).map((n) => n.id);
    expect(uncarding(carding(SETTLED, inView))).toEqual(SETTLED);
    const mountingStill = mounting(inView);
    expect(uncarding(mountingStill).unmounted).toEqual(mountingStill.unmounted);
  });
});
