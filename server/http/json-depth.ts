/**
 * The JSON nesting limit of every door (HTTP bodies, MCP messages and tool arguments, /ws frames).
 * JSON.parse copes with any depth, but recursive code after it (JSON.stringify, zod, error
 * previews) overflows the stack on a few thousand levels, so values deeper than this are refused
 * before anything else touches them. The check itself walks the value with an explicit stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether arrays/objects nest deeper than `max` (a flat object is depth 1; scalars are 0). */
export function deeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

export const DEPTH_RULE = { rule: "max_depth", message: `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep` } as const;
