import { z } from "zod";
import { DEFAULT_TEAM, TeamId } from "../ids.ts";

export const TeamParam = TeamId.default(DEFAULT_TEAM);

/** Any JSON value; `undefined` is not JSON, so a missing value is refused. */
export const JsonValue = z.custom<unknown>((v) => v !== undefined, { error: "is required (any JSON value)" });
export const JsonObject = z.record(z.string(), z.unknown(), { error: "must be a JSON object" });

// Page sizes are bounded (docs/architecture.md#input-limits): a list never returns more than this in one response.
export const MAX_PAGE = 500;
// Numbers and booleans are typed here; the HTTP adapter turns query-string text into them per field
// (server/http/query.ts), so other doors (MCP, the domain's own callers) get no silent coercion.
export const Limit = z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1).max(MAX_PAGE).default(100);
export const Cursor = z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(0).optional();

export const Flag = z.boolean({ error: "must be true or false" });

/** Free text a person or model wrote: trimmed, not empty, at most `max` characters. */
export const Text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

// ── Responses ──

/** One problem with a request, named by the field it is about (`rules[0].condition`); `received` is a short preview. */
export const FieldIssue = z.object({ field: z.string(), rule: z.string(), message: z.string(), received: z.unknown().optional() });
export type FieldIssue = z.output<typeof FieldIssue>;
