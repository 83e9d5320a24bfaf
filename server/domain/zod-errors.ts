import type { z } from "zod";
import { invalid, preview, type Issue } from "../errors.ts";

/** `data.endpoints[0].method` from a zod path. */
export function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

export function zodIssues(error: z.ZodError, prefix = ""): Issue[] {
  return error.issues.map((i) => ({
    field: fieldPath(prefix, i.path),
    rule: i.code,
    message: i.message,
    ...("input" in i && i.input !== undefined ? { received: preview(i.input) } : {}),
  }));
}

/**
 * Parses or throws an invalid_input DomainError naming every failing field. The input is reported only when a parse
 * fails, by parsing again: asking for it up front takes zod off its compiled path, several times the cost of a parse.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.infer<S> {
  const fast = schema.safeParse(value);
  if (fast.success) return fast.data;
  const r = schema.safeParse(value, { reportInput: true });
  throw invalid(zodIssues(r.success ? fast.error : r.error, prefix));
}
