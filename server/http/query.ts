/**
 * Query strings are text. The input schemas are typed (a limit is a number, a flag a boolean),
 * so the HTTP adapter converts each query value by the schema of its field: "25" → 25 where a
 * number is expected, "true"/"false"/"1"/"0" → booleans where a boolean is. Everything else stays
 * text, so an id such as "123" is still a string, and a value that does not convert is refused
 * by the schema with the usual message.
 */
import type { z } from "zod";
import { defOf, shapeOf } from "../../lib/api/shape.ts";

export { shapeOf };

/** The scalar type a field finally expects, through optional/default/nullable/pipe wrappers. */
function baseType(s: z.ZodType): string {
  const d = defOf(s);
  if (d.innerType) return baseType(d.innerType);
  if (d.type === "pipe" && d.in) return baseType(d.in);
  return d.type;
}

export function typedQuery(schema: z.ZodType, query: URLSearchParams): Record<string, unknown> {
  const shape = shapeOf(schema) ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, text] of query) {
    const field = shape[key];
    const type = field ? baseType(field) : "string";
    if (type === "number" && /^-?\d+(\.\d+)?$/.test(text)) out[key] = Number(text);
    else if (type === "boolean" && /^(true|false|1|0)$/.test(text)) out[key] = text === "true" || text === "1";
    else out[key] = text;
  }
  return out;
}
