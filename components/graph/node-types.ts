/** Declared once at module scope: a new object per render would make xyflow remount every node. */
import type { NodeTypes } from "@xyflow/react";
import ArtifactNode from "./nodes/ArtifactNode.tsx";
import ContractNode from "./nodes/ContractNode.tsx";
import GroupNode from "./nodes/GroupNode.tsx";

export const nodeTypes = { contract: ContractNode, artifact: ArtifactNode, group: GroupNode } satisfies NodeTypes;
