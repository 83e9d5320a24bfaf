"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { ContractFlowNode } from "../flow-elements.ts";
import { useCard } from "../use-detailed.ts";

/** A contract, coloured by its state; its handles start and end dependency drags (when zoomed in enough to read it). */
function ContractNode({ id, data }: NodeProps<ContractFlowNode>) {
  const c = data.contract;
  const detailed = useCard(id);
  if (!detailed)
    return (
      <div className={`canvas-node contract compact state-${c.status}`} data-status={c.status}>
        <span className="canvas-node-label">{c.title}</span>
      </div>
    );
  return (
    <div className={`canvas-node contract state-${c.status}`} data-status={c.status} title={c.statusReason ?? undefined}>
      <Handle type="target" position={Position.Top} id="in" className="nodrag" />
      <div className="canvas-node-head">
        <span className="canvas-node-title" title={c.title}>
          {c.title}
        </span>
        <span className={`badge ${c.status}`}>{c.status.replace("_", " ")}</span>
      </div>
      <div className="canvas-node-meta">
        <span className="mono">{c.id}</span> · {c.assignee}
        {c.memberState && (
          <span
            className={`badge member-state ${c.memberState.status}`}
            data-testid={`member-state-${c.id}`}
            title={`${c.assignee}'s latest state update: ${c.memberState.task}`}
          >
            {c.memberState.status.replace("_", " ")}
          </span>
        )}
      </div>
      <Handle type="source" position={Position.Bottom} id="out" className="nodrag" />
    </div>
  );
}

export default memo(ContractNode);
