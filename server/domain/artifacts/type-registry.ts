/**
 * Which `type` an artifact may have and what its data must look like: the well-known types
 * (zod) plus types a team registers with a JSON Schema. Registered schemas are interpreted by
 * @cfworker/json-schema, which compiles nothing to code (docs/architecture.md#no-code-from-data).
 */
import { JsonObject } from "../../../lib/api/common.ts";
import { z } from "zod";
import { Validator, dereference, type OutputUnit, type Schema } from "@cfworker/json-schema";
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type ArtifactTypeRow } from "../../db/rows.ts";
import { conflict, invalid, invalidField } from "../../errors.ts";
import type { RegisterTypeInput, TypeInfo } from "../../../lib/api/artifacts.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { WELL_KNOWN_TYPES, isWellKnownType, wellKnownJsonSchema } from "./well-known-types.ts";

const MAX_SCHEMA_BYTES = 64 * 1024;
/** A registered type's `jsonSchema` column: a JSON Schema document, which the Validator itself checks. */
const JsonSchemaDoc = z.custom<Schema>((v) => typeof v === "object" && v !== null && !Array.isArray(v), { error: "must be a JSON Schema object" });

// Compiled validators, most recently used last; bounded because every registered schema text is a key.
const MAX_CACHED_VALIDATORS = 256;
const validators = new Map<string, Validator>();

function validatorFor(jsonSchema: string): Validator {
  let v = validators.get(jsonSchema);
  if (v) validators.delete(jsonSchema);
  else v = new Validator(jsonColumn(JsonSchemaDoc, jsonSchema), "2020-12", false);
  validators.set(jsonSchema, v);
  if (validators.size > MAX_CACHED_VALIDATORS) validators.delete(validators.keys().next().value as string);
  return v;
}

/** `#/a/0/b` → `data.a[0].b`. Locations are URI-encoded JSON Pointers (`#/first%20name`, `#/a~1b`). */
function instanceField(location: string): string {
  const parts = location.replace(/^#/, "").split("/").filter(Boolean).map(decodeURIComponent);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : `${acc}.${p.replace(/~1/g, "/").replace(/~0/g, "~")}`), "data");
}

/**
 * The validator resolves `$ref` only when an instance reaches it, so a dangling reference deep in
 * a schema would pass registration and then break every publish. Finds them all up front.
 */
function unresolvedRefs(schema: Schema): string[] {
  const lookup = dereference(schema);
  const missing: string[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    // dereference() marks exactly the subschemas that carry a $ref with their absolute target.
    const target = (node as Schema).__absolute_ref__;
    if (target !== undefined && lookup[target] === undefined) missing.push(String((node as Schema).$ref));
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return missing;
}

export async function validateArtifactData(s: Sql, teamId: string, type: string, data: unknown): Promise<void> {
  if (isWellKnownType(type)) {
    parseOrThrow(WELL_KNOWN_TYPES[type], data, "data");
    return;
  }
  const row = await s.get<Pick<ArtifactTypeRow, "jsonSchema">>(sql`SELECT "jsonSchema" FROM "ArtifactType" WHERE "teamId" = ${teamId} AND "name" = ${type}`);
  if (!row) {
    throw invalidField(
      "type",
      "known_type",
      `unknown artifact type '${type}'; use one of ${Object.keys(WELL_KNOWN_TYPES).join(", ")} or register it for team '${teamId}'`,
      type,
    );
  }
  const result = validatorFor(row.jsonSchema).validate(data);
  if (!result.valid) {
    // The deepest units name the real problem; the outer ones only say "a property failed".
    const leaves = result.errors.filter((e: OutputUnit) => !["properties", "items", "allOf", "$ref"].includes(e.keyword));
    throw invalid(
      (leaves.length ? leaves : result.errors).map((e) => ({
        field: instanceField(e.instanceLocation),
        rule: e.keyword,
        message: e.error,
      })),
    );
  }
}

export async function registerType({ db }: DomainDeps, actor: Principal, input: RegisterTypeInput): Promise<TypeInfo> {
  if (isWellKnownType(input.name)) throw conflict(`'${input.name}' is a well-known type and cannot be redefined`, { field: "name" });
  const text = JSON.stringify(input.jsonSchema);
  if (Buffer.byteLength(text) > MAX_SCHEMA_BYTES) {
    throw invalidField("jsonSchema", "max_size", `must be at most ${MAX_SCHEMA_BYTES} bytes`);
  }
  try {
    validatorFor(text).validate(null);
    const missing = unresolvedRefs(jsonColumn(JsonSchemaDoc, text));
    if (missing.length) throw new Error(`Unresolved $ref ${missing.map((r) => `"${r}"`).join(", ")}`);
  } catch (e) {
    throw invalidField("jsonSchema", "valid_schema", `is not a usable JSON Schema: ${(e as Error).message}`);
  }
  return db.write("artifact_type.register", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    await tx.run(
      sql`INSERT INTO "ArtifactType" ("teamId","name","jsonSchema","createdAt") VALUES (${input.team},${input.name},${text},${tx.now})
       ON CONFLICT ("teamId","name") DO UPDATE SET "jsonSchema" = excluded."jsonSchema"`,
    );
    await tx.emit({ teamId: input.team, type: "artifact_type.registered", subject: `type:${input.name}`, payload: { name: input.name } });
    return { name: input.name, builtIn: false, jsonSchema: input.jsonSchema };
  });
}

export async function listTypes({ db }: DomainDeps, input: { team: string }): Promise<TypeInfo[]> {
  const builtIn = Object.keys(WELL_KNOWN_TYPES).map((name) => ({
    name,
    builtIn: true,
    jsonSchema: wellKnownJsonSchema(name as keyof typeof WELL_KNOWN_TYPES),
  }));
  const custom = await db.read((s) =>
    s.all<Pick<ArtifactTypeRow, "name" | "jsonSchema">>(sql`SELECT "name","jsonSchema" FROM "ArtifactType" WHERE "teamId" = ${input.team} ORDER BY "name"`),
  );
  return [...builtIn, ...custom.map((c) => ({ name: c.name, builtIn: false, jsonSchema: jsonColumn(JsonObject, c.jsonSchema) }))];
}
