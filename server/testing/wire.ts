/**
 * A domain value as a client reads it: JSON on the wire, then parsed by the endpoint's response
 * schema. Equal to the value it started from when the schema describes the value exactly: dates
 * come back as the same instants, and a field the schema does not describe is dropped, so the
 * comparison fails.
 */
import { expect } from "vitest";
import type { z } from "zod";
import type { Endpoint } from "../../lib/api/endpoint.ts";

export const overTheWire = <O extends z.ZodType>(endpoint: Endpoint<z.ZodType, O>, value: unknown): z.output<O> =>
  endpoint.output.parse(JSON.parse(JSON.stringify(value)));

/** Awaits an operation's value and expects it to cross the wire unchanged; returns it for further checks. */
export async function crossesUnchanged<T>(endpoint: Endpoint, value: Promise<T>): Promise<T> {
  const v = await value;
  expect(overTheWire(endpoint, v)).toEqual(v);
  return v;
}
