"use client";

import { ViewportPortal } from "@xyflow/react";
import { memo } from "react";
import type { Frame } from "./grouping.ts";

/** The boxes of expanded groups, behind their members, each named at its top left. */
function GroupFrames({ frames }: { frames: Frame[] }) {
  return (
    <ViewportPortal>
      {frames.map((f) => (
        <div key={f.name} className="group-frame" data-testid={`frame-${f.name}`} style={{ left: f.x, top: f.y, width: f.width, height: f.height }}>
          <span className="group-frame-name">{f.name}</span>
        </div>
      ))}
    </ViewportPortal>
  );
}

export default memo(GroupFrames);
