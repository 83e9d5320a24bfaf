"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { ArtifactFlowNode } from "../flow-elements.ts";
import { useCard } from "../use-detailed.ts";

/** An artifact with its current version and a stale badge. It feeds contracts, so only its lower handle starts drags. */
function ArtifactNode({ id, data }: NodeProps<ArtifactFlowNode>) {
  const a = data.artifact;
  const detailed = useCard(id);
  const classes = `canvas-node artifact status-${a.status}${a.stale ? " is-stale" : ""}`;
  if (!detailed)
    return (
      <div className={`${classes} compact`} data-status={a.status} data-stale={a.stale}>
        <span className="canvas-node-label">{a.id}</span>
      </div>
    );
  return (
    <div className={classes} data-status={a.status} data-stale={a.stale}>
      <Handle type="target" position={Position.Top} id="in" isConnectable={false} />
      <div className="canvas-node-head">
        <span className="canvas-node-title mono">{a.id}</span>
        <span className="canvas-node-version" data-testid="version">
          {a.version === null ? a.status.replace("_", " ") : `v${a.version}`}
        </span>
      </div>
      <div className="canvas-node-meta">
        {a.type ?? "not published yet"}
        {a.stale && <span className="badge stale">stale</span>}
      </div>
      <Handle type="source" position={Position.Bottom} id="out" className="nodrag" />
    </div>
  );
}

export default memo(ArtifactNode);
