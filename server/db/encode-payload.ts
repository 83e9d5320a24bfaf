/**
 * An event's payload as the log stores it (dates as ISO text), checked against its schema in the catalog
 * (lib/api/events.ts). Every write pays for this once per event, so it takes zod's fast path where it can: `encode`
 * walks the schema without zod's compiled parser (about 20× a `parse` of the same payload), and for a schema with no
 * codec, transform or default anywhere in it, encoding and parsing give the same value. Such a schema is parsed; one
 * with a codec (an IsoDate) is encoded.
 */
import { z } from "zod";
import { EVENTS } from "../../lib/api/events.ts";
import type { EventType } from "../events/types.ts";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** Types whose value is the same whichever way zod runs them; anything else (pipe, transform, default, …) is not. */
const CONTAINERS: Record<string, (d: Def) => unknown[]> = {
  object: (d) => [...Object.values(d.shape as object), ...(d.catchall ? [d.catchall] : [])],
  array: (d) => [d.element],
  tuple: (d) => [...(d.items as unknown[]), ...(d.rest ? [d.rest] : [])],
  union: (d) => d.options as unknown[],
  intersection: (d) => [d.left, d.right],
  record: (d) => [d.keyType, d.valueType],
  nullable: (d) => [d.innerType],
  optional: (d) => [d.innerType],
  readonly: (d) => [d.innerType],
};
const LEAVES = new Set(["string", "number", "boolean", "bigint", "null", "undefined", "unknown", "any", "enum", "literal", "template_literal", "never"]);

/** True when parsing `schema` gives what encoding it gives: no codec, transform, default or lazy part anywhere. */
export function parsesAsEncodes(schema: unknown): boolean {
  const def = defOf(schema);
  if (LEAVES.has(def.type)) return true;
  const children = CONTAINERS[def.type];
  return children !== undefined && children(def).every(parsesAsEncodes);
}

const plain = new Map<EventType, boolean>();

export function encodePayload(type: EventType, payload: unknown): unknown {
  const schema: z.ZodType = EVENTS[type];
  let parse = plain.get(type);
  if (parse === undefined) plain.set(type, (parse = parsesAsEncodes(schema)));
  const checked = parse ? schema.safeParse(payload) : z.safeEncode(schema, payload);
  if (!checked.success) throw new Error(`event '${type}': the payload does not fit the catalog (lib/api/events.ts): ${z.prettifyError(checked.error)}`);
  return checked.data;
}
