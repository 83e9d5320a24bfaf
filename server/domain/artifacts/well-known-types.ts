/**
 * The well-known artifact types (docs/domain.md#well-known-types). Their zod schemas validate `data` on publish and are
 * exported as JSON Schema for MCP and the docs. Extra keys are kept: producers may add context.
 */
import { z } from "zod";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const NonEmpty = z.string().min(1, { error: "must not be empty" });
const Count = z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(0, { error: "must be ≥ 0" });

const apiContract = z.looseObject({
  endpoints: z
    .array(
      z.looseObject({
        method: z.string().refine((m) => (HTTP_METHODS as readonly string[]).includes(m.toUpperCase()), {
          error: `must be an HTTP method (${HTTP_METHODS.join(", ")})`,
        }),
        path: z.string().startsWith("/", { error: "must start with '/'" }),
        request: z.unknown().optional(),
        response: z.unknown().optional(),
      }),
    )
    .min(1, { error: "must list at least one endpoint" }),
});

const Field = z.union([NonEmpty, z.looseObject({ name: NonEmpty })], {
  error: "must be a field name or an object with a name",
});

const schemaChange = z.looseObject({
  models: z
    .array(
      z.looseObject({
        name: NonEmpty,
        action: z.enum(["create", "update", "delete", "rename"]).optional(),
        fields: z.union([z.array(Field), z.record(z.string(), z.unknown())], {
          error: "must be a list of fields or an object of field → definition",
        }),
      }),
    )
    .min(1, { error: "must list at least one model" }),
});

const componentSpec = z.looseObject({
  componentName: NonEmpty,
  props: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  states: z.array(z.unknown()).optional(),
  events: z.array(z.unknown()).optional(),
});

const testResults = z
  .looseObject({
    total: Count,
    passed: Count,
    failed: Count,
    skipped: Count.optional(),
    failures: z.array(z.looseObject({ name: NonEmpty, message: z.string().optional() })).optional(),
  })
  .superRefine((r, ctx) => {
    const counted = r.passed + r.failed + (r.skipped ?? 0);
    if (counted > r.total) {
      ctx.addIssue({
        code: "custom",
        path: ["passed"],
        message: `passed + failed + skipped must be ≤ total (got ${r.passed} + ${r.failed} + ${r.skipped ?? 0} = ${counted} > ${r.total})`,
        input: r,
      });
    }
  });

const fileManifest = z.looseObject({
  files: z.array(
    z.looseObject({
      path: NonEmpty,
      action: z.enum(["create", "modify", "delete", "rename"]),
      description: z.string().optional(),
    }),
  ),
});

const configChange = z.looseObject({
  changes: z.array(
    // z.unknown() would report a missing newValue as "expected nonoptional"; this says what is wrong.
    z.looseObject({
      key: NonEmpty,
      oldValue: z.unknown().optional(),
      newValue: z.custom<unknown>((v) => v !== undefined, { error: "is required (null to unset)" }),
    }),
  ),
});

export const WELL_KNOWN_TYPES = {
  "api-contract": apiContract,
  "schema-change": schemaChange,
  "component-spec": componentSpec,
  "test-results": testResults,
  "file-manifest": fileManifest,
  "config-change": configChange,
  custom: z.unknown(),
} as const;

export type WellKnownType = keyof typeof WELL_KNOWN_TYPES;
export type TestResults = z.infer<typeof testResults>;

export function isWellKnownType(name: string): name is WellKnownType {
  return Object.hasOwn(WELL_KNOWN_TYPES, name);
}

/** JSON Schema (draft 2020-12) of a well-known type; cross-field rules are described in `description`. */
export function wellKnownJsonSchema(name: WellKnownType): Record<string, unknown> {
  const schema = z.toJSONSchema(WELL_KNOWN_TYPES[name], { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  if (name === "test-results") schema.description = "passed + failed + skipped must be ≤ total";
  return schema;
}

export const parseTestResults = (data: unknown) => testResults.safeParse(data);
