"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { ContractStatus } from "@/lib/api/contracts.ts";
import type { GroupFlowNode } from "../flow-elements.ts";
import { useCard } from "../use-detailed.ts";

/**
 * A collapsed group: its name, what it holds, and a bar of its contracts' states (widths by count);
 * zoomed out, its name and size only. Clicking it expands it.
 */
function GroupNode({ id, data }: NodeProps<GroupFlowNode>) {
  const g = data.group;
  const detailed = useCard(id);
  if (!detailed)
    return (
      <div className="canvas-node group compact" data-group={g.id}>
        <span className="canvas-node-label">
          {g.id} · {g.contracts + g.artifacts}
        </span>
      </div>
    );
  return (
    <div className="canvas-node group" data-group={g.id}>
      <Handle type="target" position={Position.Top} id="in" isConnectable={false} />
      <div className="canvas-node-head">
        <span className="canvas-node-title">{g.id}</span>
        <span className="canvas-node-version">{g.contracts + g.artifacts}</span>
      </div>
      <div className="canvas-node-meta">
        {g.contracts} contracts · {g.artifacts} artifacts{g.stale ? ` · ${g.stale} stale` : ""}
      </div>
      <div className="group-states" aria-hidden="true">
        {ContractStatus.options.map((s) => (g.states[s] ? <span key={s} className={`state-${s}`} style={{ flexGrow: g.states[s] }} /> : null))}
      </div>
      <Handle type="source" position={Position.Bottom} id="out" isConnectable={false} />
    </div>
  );
}

export default memo(GroupNode);
