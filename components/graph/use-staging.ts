import { useStoreApi, useUpdateNodeInternals } from "@xyflow/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { CanvasEdge, CanvasNode } from "./flow-elements.ts";
import { carding, inView, isSettled, mounting, nearestFirst, released, releasedAll, SETTLED, uncarding } from "./staging.ts";
import { DETAIL_ZOOM, OVERVIEW_ZOOM } from "./use-detailed.ts";

const NO_NODES: CanvasNode[] = [];
const without = (nodes: CanvasNode[], keys: ReadonlySet<string>) => (keys.size ? nodes.filter((n) => !keys.has(n.id)) : nodes);

type Staged = {
  /** The nodes to hand xyflow: `nodes` less those not mounted yet. */
  shown: CanvasNode[];
  /** Nodes still drawn as boxes though zoomed in to cards (HeldCompact). */
  compact: ReadonlySet<string>;
  /** Whether a node is held back either way, or undefined when none is. */
  held: ((key: string) => boolean) | undefined;
};

/**
 * The canvas's zoom crossings, a chunk per frame (staging.ts). Crossing out of the overview, xyflow's nodes are
 * set here as the zoom crosses, before React draws, without those in view past the first chunk. Handed at once,
 * hundreds of nodes are placed one by one, each placement walking the new siblings after it (quadratic: 0.75 s for
 * the 2,000-node graph); a chunk walks a few dozen. Crossing into cards, the mounted nodes become cards a chunk per
 * frame the same way, and have their handles measured again: measured as boxes, they had none, and their edges
 * would find no end.
 */
export function useStaging(nodes: CanvasNode[]): Staged {
  const store = useStoreApi<CanvasNode, CanvasEdge>();
  const latest = useRef(nodes);
  useEffect(() => {
    latest.current = nodes;
  }, [nodes]);
  const [staging, setStaging] = useState(SETTLED);
  useEffect(
    () =>
      store.subscribe((now, before) => {
        // Called on every change of xyflow's store, each frame of a pan among them: nothing is worked out but at a crossing.
        const zoom = now.transform[2];
        const was = before.transform[2];
        const out = zoom < OVERVIEW_ZOOM;
        if (out !== was < OVERVIEW_ZOOM) {
          if (out) return (setStaging(SETTLED), now.setNodes(NO_NODES));
          const next = mounting(nearestFirst(inView(latest.current, now.transform, now.width, now.height), now.transform, now.width, now.height));
          setStaging(next);
          now.setNodes(without(latest.current, new Set(next.unmounted)));
        } else if (!out && zoom >= DETAIL_ZOOM !== was >= DETAIL_ZOOM) {
          if (zoom < DETAIL_ZOOM) return setStaging(uncarding);
          const mounted = new Set(Array.from(now.domNode?.querySelectorAll(".react-flow__node") ?? [], (el) => el.getAttribute("data-id")));
          const onPage = nearestFirst(
            latest.current.filter((n) => mounted.has(n.id)),
            now.transform,
            now.width,
            now.height,
          );
          setStaging((s) => carding(s, onPage));
        }
      }),
    [store],
  );
  const [stagedFor, setStagedFor] = useState(nodes);
  if (stagedFor !== nodes) {
    setStagedFor(nodes);
    if (!isSettled(staging)) setStaging(releasedAll(staging));
  }
  // The next chunk after the frame the last one was drawn in: a frame callback alone would run before that
  // frame's paint, and two chunks would be one task.
  useEffect(() => {
    if (isSettled(staging)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setStaging(released))));
    return () => (cancelAnimationFrame(frame), clearTimeout(timer));
  }, [staging]);
  const remeasure = useUpdateNodeInternals();
  useEffect(() => {
    if (staging.carded.length) remeasure([...staging.carded]);
  }, [staging.carded, remeasure]);
  const unmounted = useMemo(() => new Set(staging.unmounted), [staging.unmounted]);
  const compact = useMemo(() => new Set(staging.compact), [staging.compact]);
  const shown = useMemo(() => without(nodes, unmounted), [nodes, unmounted]);
  const held = useMemo(() => (unmounted.size || compact.size ? (key: string) => unmounted.has(key) || compact.has(key) : undefined), [unmounted, compact]);
  return { shown, compact, held };
}
