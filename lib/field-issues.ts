/**
 * The hub names every problem with the field it is about (`rules[0].condition`,
 * `overrides.build-api.inputs`); forms show each one under its field.
 */
import { z } from "zod";
import { FieldIssue } from "./api/common.ts";
import { ApiError } from "./browser-api.ts";

export { FieldIssue };

/** The per-field issues of a refused request; a refusal without them becomes one issue about its own field, if any. */
export function issuesOf(error: unknown): FieldIssue[] {
  if (!(error instanceof ApiError)) return [];
  const list = z.array(FieldIssue).safeParse(error.details.issues);
  if (list.success) return list.data;
  const field = typeof error.details.field === "string" ? error.details.field : "";
  const rule = typeof error.details.rule === "string" ? error.details.rule : error.code;
  return [{ field, rule, message: field ? error.message.replace(new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `), "") : error.message }];
}

export const issuesAt = (issues: FieldIssue[], field: string) => issues.filter((i) => i.field === field);
