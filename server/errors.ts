/**
 * Typed domain errors. The domain throws only these; each adapter (HTTP, CLI, /ws, MCP) maps
 * them once. The brand survives the Next bundle boundary, where `instanceof` would not.
 */
import type { FieldIssue } from "../lib/api/common.ts";

export type ErrorCode =
  | "invalid_input"
  | "not_found"
  | "conflict"
  | "illegal_transition"
  | "precondition_failed"
  | "forbidden"
  | "unauthorized"
  | "too_large"
  | "team_archived"
  | "rate_limited"
  | "internal";

export type Issue = FieldIssue;

const BRAND = Symbol.for("teamhub.DomainError");

const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  illegal_transition: 409,
  precondition_failed: 412,
  too_large: 413,
  team_archived: 423,
  rate_limited: 429,
  internal: 500,
};

export class DomainError extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.status = STATUS[code];
  }
  static is(e: unknown): e is DomainError {
    return typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** One or more fields broke a rule. The message names the first field and rule. */
export function invalid(issues: Issue[]): DomainError {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new DomainError("invalid_input", `${first.field || "input"}: ${first.message}${more}`, { issues });
}

export function invalidField(field: string, rule: string, message: string, received?: unknown): DomainError {
  return invalid([{ field, rule, message, ...(received === undefined ? {} : { received: preview(received) }) }]);
}

/** Messages start with the field they are about, when there is one: "id: contract 'x' does not exist". */
const about = (details: Record<string, unknown>, message: string) => (typeof details.field === "string" ? `${details.field}: ${message}` : message);

export const notFound = (what: string, id: string, field?: string) =>
  new DomainError("not_found", about({ field }, `${what} '${id}' does not exist`), { what, id, ...(field ? { field, rule: "exists" } : {}) });

export const conflict = (message: string, details: Record<string, unknown> = {}) => new DomainError("conflict", about(details, message), details);

export const forbidden = (message: string, details: Record<string, unknown> = {}) => new DomainError("forbidden", message, details);

/** Short, safe rendering of a received value for error details: at most 80 characters, and never a deep walk. */
export function preview(value: unknown): unknown {
  if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 77)}…` : value;
  if (value === null || typeof value !== "object") return value;
  const cut = { at: false };
  const text = render(value, 4, cut);
  return cut.at || text.length > 80 ? `${text.slice(0, 77)}…` : value;
}

/** JSON text of the first `levels` levels, stopping once it is longer than a preview shows; `cut` records what was left out. */
function render(value: unknown, levels: number, cut: { at: boolean }): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (levels === 0) return ((cut.at = true), "…");
  const keys = Object.keys(value);
  const parts: string[] = [];
  let length = 0;
  for (const k of keys) {
    if (length > 80) return ((cut.at = true), `${Array.isArray(value) ? "[" : "{"}${parts.join(",")}`);
    const part = `${Array.isArray(value) ? "" : `${JSON.stringify(k)}:`}${render((value as Record<string, unknown>)[k], levels - 1, cut)}`;
    parts.push(part);
    length += part.length + 1;
  }
  return Array.isArray(value) ? `[${parts.join(",")}]` : `{${parts.join(",")}}`;
}
