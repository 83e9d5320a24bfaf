import { z } from "zod";
import { DEFAULT_TEAM, TeamId } from "../ids.ts";

export const TeamParam = TeamId.default(DEFAULT_TEAM);

/** Any JSON value; `undefined` is not JSON, so a missing value is refused. */
export const JsonValue = z.custom<unknown>((v) => v !== undefined, { error: "is required (any JSON value)" });
export const JsonObject = z.record(z.string(), z.unknown(), { error: "must be a JSON object" });

// Page sizes are bounded (§12): a list never returns more than this in one response.
export const MAX_PAGE = 500;
export const Limit = z.coerce.number().int().min(1).max(MAX_PAGE).default(100);
export const Cursor = z.coerce.number().int().min(0).optional();

/** Query strings carry booleans as text; z.coerce.boolean would read "false" as true. */
export const Flag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")], {
  error: "must be true or false",
});
