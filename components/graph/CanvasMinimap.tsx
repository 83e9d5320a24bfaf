"use client";

import { Panel, useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import { useMemo, type PointerEvent } from "react";
import type { BoxPaths } from "./OverviewNodes.tsx";

/** The minimap's size: on a narrow canvas (a phone's) a smaller one, which leaves most of the graph uncovered. */
const sizeFor = (canvasWidth: number) => (canvasWidth < 600 ? { WIDTH: 120, HEIGHT: 84 } : { WIDTH: 200, HEIGHT: 140 });

/**
 * The minimap of a graph too big for xyflow's (which draws every node as an element each time it
 * mounts): the overview's paths, built once per set of nodes, in a small SVG that never changes while
 * panning; only the box of the view, a div over it, moves. Pressing or dragging on it centres the view there.
 */
export function CanvasMinimap({ paths }: { paths: BoxPaths }) {
  const { bounds } = paths;
  const store = useStoreApi();
  const { setCenter } = useReactFlow();
  const [x, y, zoom] = useStore((s) => s.transform);
  const [width, height] = [useStore((s) => s.width), useStore((s) => s.height)];
  const { WIDTH, HEIGHT } = sizeFor(width);
  const scale = Math.min(WIDTH / bounds.width, HEIGHT / bounds.height);
  // The graph is centred in the minimap: these are where its bounds' top left corner lands.
  const [left, top] = [(WIDTH - bounds.width * scale) / 2, (HEIGHT - bounds.height * scale) / 2];
  const view = {
    left: left + (-x / zoom - bounds.x) * scale,
    top: top + (-y / zoom - bounds.y) * scale,
    width: (width / zoom) * scale,
    height: (height / zoom) * scale,
  };
  // The same element while panning, so React leaves the 10,000 boxes' paths alone.
  const boxes = useMemo(
    () => (
      <svg width={WIDTH} height={HEIGHT} viewBox={`${bounds.x - left / scale} ${bounds.y - top / scale} ${WIDTH / scale} ${HEIGHT / scale}`}>
        <g className="overview-nodes">
          {paths.list.map((p) => (
            <g key={p.c} className={p.c}>
              <path d={p.d} />
            </g>
          ))}
        </g>
      </svg>
    ),
    [paths, bounds, left, top, scale, WIDTH, HEIGHT],
  );
  const centreAt = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const to = { x: bounds.x + (e.clientX - box.left - left) / scale, y: bounds.y + (e.clientY - box.top - top) / scale };
    void setCenter(to.x, to.y, { zoom: store.getState().transform[2], duration: 0 });
  };
  return (
    <Panel position="bottom-right" className="canvas-minimap" data-testid="canvas-minimap" data-nodes={paths.count}>
      <div
        role="img"
        aria-label="minimap"
        className="canvas-minimap-map"
        style={{ width: WIDTH, height: HEIGHT }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          centreAt(e);
        }}
        onPointerMove={(e) => e.buttons === 1 && centreAt(e)}
      >
        {boxes}
        <div className="canvas-minimap-view" data-testid="canvas-minimap-view" style={view} />
      </div>
    </Panel>
  );
}
