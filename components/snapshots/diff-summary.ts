/**
 * One line per entity of a snapshot diff, for reading the diff at a glance before its
 * field-level rows: what an added or removed entity is, and what changed in a changed one.
 */
import type { DiffEntity, DiffKindName, FieldChanges } from "../../lib/api/snapshots.ts";

const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
const show = (v: unknown) => (v === null ? "none" : String(v));
const version = (v: unknown) => (typeof v === "number" ? `v${v}` : "rolled back");

export function entitySummary(kind: DiffKindName, e: DiffEntity): string {
  switch (kind) {
    case "contracts":
      return `${show(e.status)} · ${show(e.assignee)} · ${show(e.title)}`;
    case "artifacts":
      return e.archived ? "archived" : version(e.version);
    case "pipelines":
      return `${show(e.status)} · ${Array.isArray(e.rules) ? e.rules.length : 0} rules`;
    case "roster":
      return [e.role, e.status].filter((x) => typeof x === "string" && x !== "").join(" · ");
  }
}

/** Fields whose values say the most about a change, per kind; other changed fields are only named. */
const HEADLINE: Record<DiffKindName, string[]> = {
  contracts: ["status", "assignee", "title", "priority"],
  artifacts: ["version", "status"],
  pipelines: ["status"],
  roster: ["role", "status", "currentTask"],
};

/** "status: pending → completed · also statusReason, outputs": the headline fields with values, the rest by name. */
export function changeSummary(kind: DiffKindName, fields: FieldChanges): string {
  if (kind === "artifacts" && "version" in fields && !("archived" in fields)) return `${version(fields.version.old)} → ${version(fields.version.new)}`;
  const names = Object.keys(fields);
  const valued = names.filter((n) => HEADLINE[kind].includes(n) && scalar(fields[n].old) && scalar(fields[n].new));
  const others = names.filter((n) => !valued.includes(n));
  const parts = valued.map((n) => `${n}: ${show(fields[n].old)} → ${show(fields[n].new)}`);
  if (others.length) parts.push(`${valued.length ? "also " : ""}${others.join(", ")}`);
  return parts.join(" · ");
}

/** Flattens `{field: {old, new}}` into the two sides JsonDiff compares. */
export function sides(fields: FieldChanges): [Record<string, unknown>, Record<string, unknown>] {
  const entries = Object.entries(fields);
  return [Object.fromEntries(entries.map(([k, c]) => [k, c.old])), Object.fromEntries(entries.map(([k, c]) => [k, c.new]))];
}
