/**
 * One HTTP endpoint, described once: its method and path, the input it takes and the response it
 * returns, as zod schemas. The hub's route handlers, the checked fetch of the client library, the
 * CLI and the dashboard, and the contract test all read the same description (docs/wire.md).
 */
import { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What a call does to the hub's state: `read` changes nothing, `write` adds or changes, `destructive` removes, ends or
 * undoes. MCP clients see it as a tool's read-only and destructive hints. By default a GET reads, a DELETE destroys
 * and anything else writes; an endpoint says otherwise where its method does not tell (a GET that records the read,
 * a POST that only previews, a POST that kills).
 */
export type Effect = "read" | "write" | "destructive";

export type Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  method: Method;
  /** With `:name` segments filled from the input field of that name. */
  path: string;
  input: I;
  output: O;
  /** The status of a success: 201 where the call creates something. */
  status: number;
  /** The answer may take minutes on purpose (an ask, a delegate): no client-side time limit applies. */
  waits: boolean;
  effect: Effect;
};

export const endpoint = <I extends z.ZodType, O extends z.ZodType>(e: {
  method: Method;
  path: string;
  input: I;
  output: O;
  status?: number;
  waits?: boolean;
  effect?: Effect;
}): Endpoint<I, O> => ({ status: 200, waits: false, effect: e.method === "GET" ? "read" : e.method === "DELETE" ? "destructive" : "write", ...e });

/** What a caller passes (wire form) and what it gets back (dates as Date). */
export type InputOf<E extends Endpoint> = z.input<E["input"]>;
export type OutputOf<E extends Endpoint> = z.output<E["output"]>;

/**
 * Input as a person typed it, sent for the hub to judge: a form's or the CLI's text that is not a
 * number, a scope that does not exist or rules still being written are refused by the hub, in the
 * words every caller gets (docs/wire.md#typed-by-a-person). Only for what a person entered.
 */
export const asTyped = <E extends Endpoint>(_endpoint: E, input: Record<string, unknown>) => input as InputOf<E>;

/** An endpoint that takes nothing. */
export const NoInput = z.object({});

/**
 * A timestamp: ISO 8601 text on the wire, a Date on either side of it. The domain returns Dates,
 * JSON carries their ISO form, and parsing a response turns it back into a Date.
 */
export const IsoDate = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/** Every failure the hub answers, whatever the route. */
export const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).default({}) }),
});
