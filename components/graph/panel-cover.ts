type Box = Pick<DOMRect, "left" | "right" | "top" | "bottom" | "height">;

/**
 * How much of the canvas's height, from its foot, the details panel covers: on a phone the panel is a sheet over
 * the canvas's lower part (docs/dashboard-phone.md#canvas); beside the canvas, or not open, it covers none.
 */
export function coveredBelow(canvas: Box | undefined, panel: Box | undefined): number {
  if (!canvas || !panel || panel.left >= canvas.right || panel.right <= canvas.left) return 0;
  return Math.min(canvas.height, Math.max(0, canvas.bottom - panel.top));
}
