"use client";

import { useStore } from "@xyflow/react";
import type { Frame } from "./grouping.ts";
import { toScreen } from "./to-screen.ts";

/**
 * The collapse button of each expanded group, just above its frame's top right corner. Drawn in screen
 * space over the canvas, not in the frame: there it would lie under the nodes (frames are drawn behind
 * them) and shrink with the zoom to nothing. A real button: Tab reaches it, Enter or Space presses it.
 */
export function FrameToggles({ frames, onCollapse }: { frames: readonly Frame[]; onCollapse: (group: string) => void }) {
  const transform = useStore((s) => s.transform);
  return (
    <div className="frame-toggles">
      {frames.map((f) => {
        const r = toScreen(f, transform);
        return (
          <button
            key={f.name}
            type="button"
            className="group-frame-toggle"
            aria-label={`collapse group ${f.name}`}
            title={`Collapse group ${f.name}`}
            data-testid={`collapse-${f.name}`}
            style={{ left: r.left + r.width, top: r.top }}
            onClick={() => onCollapse(f.name)}
          >
            Collapse
          </button>
        );
      })}
    </div>
  );
}
