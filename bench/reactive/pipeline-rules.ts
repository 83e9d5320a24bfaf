/**
 * 10 pipelines × 10 rules with CEL conditions of the kinds people write (numbers in the data,
 * version and type checks, string operations, a comprehension), each rule's threshold or
 * string shifted per pipeline. Every rule carries its meaning in plain TypeScript too (`fires`:
 * trigger and filters; `holds`: the condition), so the execution log can be checked exactly.
 * About one condition in ten is true; a true one notifies a session, the cheapest action.
 */
import type { z } from "zod";
import type { Rule } from "../../lib/api/pipelines.ts";
import { AREAS, type Published } from "./pipeline-events.ts";

export const PIPELINES = 10;

type Trigger = { type: "artifact_published" | "artifact_version_bumped"; artifactType?: string };
export type RuleSpec = { rule: z.input<typeof Rule>; fires: (e: Published) => boolean; holds: (e: Published) => boolean };

type TestRun = { total: number; passed: number; failed: number };
type Api = { endpoints: Array<{ method: string }> };
type Schema = { models: Array<{ action: string; fields: string[] }> };
const as = <T>(e: Published) => e.data as unknown as T;

function spec(p: number, name: string, trigger: Trigger, condition: string, holds: (e: Published) => boolean): RuleSpec {
  return {
    rule: {
      name,
      trigger,
      condition,
      action: { type: "notify_session", target: `owner-${p}`, message: `${name}: \${artifact.id}@v\${artifact.version} by \${artifact.publisher}` },
    },
    fires: (e) => (trigger.type === "artifact_published" || e.version >= 2) && (trigger.artifactType === undefined || trigger.artifactType === e.type),
    holds,
  };
}

/** The rules of pipeline p. */
export function pipelineRules(p: number): RuleSpec[] {
  const area = AREAS[p % AREAS.length];
  const passRate = [0.95, 0.96, 0.97][p % 3];
  const published: Trigger = { type: "artifact_published" };
  const bumped: Trigger = { type: "artifact_version_bumped" };
  const ofType = (artifactType: string): Trigger => ({ type: "artifact_published", artifactType });
  return [
    spec(p, "failing tests", ofType("test-results"), "data.failed > 0", (e) => as<TestRun>(e).failed > 0),
    spec(
      p,
      "repeat test run",
      published,
      `artifact.version >= ${p + 2} && artifact.type == "test-results"`,
      (e) => e.version >= p + 2 && e.type === "test-results",
    ),
    spec(
      p,
      "owned area changed",
      bumped,
      `artifact.id.startsWith("${area}-") && artifact.id.endsWith("${p}")`,
      (e) => e.id.startsWith(`${area}-`) && e.id.endsWith(String(p)),
    ),
    spec(p, "area release", published, `artifact.name.contains("${area}") && artifact.version > ${p}`, (e) => e.name.includes(area) && e.version > p),
    spec(p, "wide API with deletes", ofType("api-contract"), `size(data.endpoints) >= 7 && size(data.endpoints.filter(x, x.method == "DELETE")) >= 2`, (e) => {
      const endpoints = as<Api>(e).endpoints;
      return endpoints.length >= 7 && endpoints.filter((x) => x.method === "DELETE").length >= 2;
    }),
    spec(
      p,
      "hotfix",
      published,
      `artifact.summary.endsWith("hotfix") && artifact.version >= ${(p % 3) + 5}`,
      (e) => e.summary.endsWith("hotfix") && e.version >= (p % 3) + 5,
    ),
    spec(p, "low pass rate", ofType("test-results"), `data.total > 0 && double(data.passed) / double(data.total) < ${passRate}`, (e) => {
      const r = as<TestRun>(e);
      return r.total > 0 && r.passed / r.total < passRate;
    }),
    spec(p, "large publish", bumped, `event.payload.size > ${1100 + 10 * p}`, (e) => e.size > 1100 + 10 * p),
    spec(
      p,
      "agent watch",
      published,
      `artifact.publisher == "ci-${p}" && !artifact.summary.contains("hotfix")`,
      (e) => e.publisher === `ci-${p}` && !e.summary.includes("hotfix"),
    ),
    spec(p, "destructive migration", ofType("schema-change"), `data.models.exists(m, m.action == "delete" && size(m.fields) > ${11 + (p % 2)})`, (e) =>
      as<Schema>(e).models.some((m) => m.action === "delete" && m.fields.length > 11 + (p % 2)),
    ),
  ];
}
