/** Reading a zod schema's structure: the fields of an input object, through wrappers. */
import type { z } from "zod";

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType> };
export const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The fields of an object schema (through a pipe's input), or null for any other schema. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const d = defOf(schema);
  if (d.type === "pipe" && d.in) return shapeOf(d.in);
  return d.shape ?? null;
}
