/**
 * Field-level differences between two JSON values, for the version diff and the snapshot diff
 * viewer: every leaf path (`endpoints[0].method`) with what it was and what it is.
 */
export type Change = { path: string; kind: "added" | "removed" | "changed" | "same"; before?: unknown; after?: unknown };

function leaves(value: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> {
  // Nothing on one side (an entity that did not exist yet) has no leaves: everything is added.
  if (value === undefined) return out;
  if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === "object" && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, value);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Paths in first-seen order (before's, then those only in after). */
export function diffJson(before: unknown, after: unknown): Change[] {
  const a = leaves(before, "", new Map());
  const b = leaves(after, "", new Map());
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  return paths.map((path) => {
    if (!b.has(path)) return { path, kind: "removed", before: a.get(path) };
    if (!a.has(path)) return { path, kind: "added", after: b.get(path) };
    return same(a.get(path), b.get(path))
      ? { path, kind: "same", before: a.get(path), after: b.get(path) }
      : { path, kind: "changed", before: a.get(path), after: b.get(path) };
  });
}
