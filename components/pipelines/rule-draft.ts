/**
 * The rule editor's model: rules as plain JSON while they are being typed (possibly incomplete,
 * possibly not even objects when edited as JSON), the fields the form shows for each, and the
 * rules as sent to the hub. Empty optional fields are left out when sending, so an empty
 * condition means "no condition" rather than an empty expression.
 */
import { FILTERS, scopeOf, TRIGGER_TYPES, type Action, type Scope, type Trigger, type TriggerType } from "../../lib/api/pipelines.ts";

export type Json = Record<string, unknown>;
/**
 * `placeholder`: what an empty field means ("any", "no limit"). `example`: a value one might write, shown under the
 * field ("such as qa-dev") rather than greyed in it, where it would look like a value already there. `picker`: the
 * field names a member or a contract, so the input suggests the team's.
 */
export type FieldSpec = {
  path: string;
  label: string;
  placeholder?: string;
  example?: string;
  picker?: "member" | "contract";
  optional?: boolean;
  long?: boolean;
};

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const asObject = (v: unknown): Json => (isObject(v) ? v : {});

export function getAt(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), value);
}

/** A copy of `value` with `path` set, creating the objects on the way. */
export function setAt(value: unknown, path: string, to: unknown): Json {
  const [head, ...rest] = path.split(".");
  const base = asObject(value);
  return { ...base, [head]: rest.length ? setAt(base[head], rest.join("."), to) : to };
}

export const ACTION_FIELDS: Record<Action["type"], FieldSpec[]> = {
  notify_session: [
    { path: "action.target", label: "member to notify", example: "qa-dev", picker: "member" },
    { path: "action.message", label: "message", example: "API contract updated: re-run tests", long: true },
  ],
  send_to_session: [
    { path: "action.target", label: "session (member) to send a turn to", example: "qa-dev", picker: "member" },
    { path: "action.message", label: "message", example: "Re-run the tests against ${artifact.id}@v${artifact.version}", long: true },
  ],
  broadcast: [{ path: "action.message", label: "message to everyone on the roster", example: "${artifact.id} v${artifact.version} is out", long: true }],
  reopen_contract: [
    { path: "action.contractId", label: "contract to reopen", example: "build-api", picker: "contract" },
    { path: "action.reason", label: "reason", example: "Failed tests: ${data.failed}", long: true },
  ],
  create_contract: [
    { path: "action.contract.id", label: "contract id", example: "fix-${contract.id}" },
    { path: "action.contract.title", label: "title", example: "Fix ${contract.id}: ${contract.statusReason}" },
    { path: "action.contract.assignee", label: "assignee", example: "${contract.assignee}", picker: "member" },
    { path: "action.contract.description", label: "description", optional: true, long: true },
  ],
  invalidate_downstream: [{ path: "action.artifactId", label: "artifact whose downstream goes stale", placeholder: "the event's artifact", optional: true }],
};
export const ACTION_TYPES = Object.keys(ACTION_FIELDS) as Array<Action["type"]>;

const FILTER_LABELS: Record<Scope, Partial<Record<keyof Trigger, string>>> = {
  artifact: { artifactType: "artifact type", artifactId: "artifact id", publisher: "published by" },
  contract: { contractId: "contract id", publisher: "changed by" },
  message: { publisher: "from", to: "to" },
  state: { role: "role", status: "status", publisher: "posted by" },
};

export const triggerType = (rule: unknown): TriggerType => {
  const t = getAt(rule, "trigger.type");
  return (TRIGGER_TYPES as readonly unknown[]).includes(t) ? (t as TriggerType) : "artifact_published";
};
export const actionType = (rule: unknown): Action["type"] | null => {
  const t = getAt(rule, "action.type");
  return ACTION_TYPES.includes(t as Action["type"]) ? (t as Action["type"]) : null;
};

export function filterFields(rule: unknown): FieldSpec[] {
  const scope = scopeOf(triggerType(rule));
  return FILTERS[scope].map((key) => ({ path: `trigger.${key}`, label: FILTER_LABELS[scope][key] ?? key, placeholder: "any" }));
}

export const RATE_FIELDS: FieldSpec[] = [
  { path: "rateLimit.max", label: "at most (runs)", placeholder: "no limit" },
  { path: "rateLimit.perSeconds", label: "per (seconds)", placeholder: "no limit" },
];

/** Every path the form has an input for, so issues about anything else are listed apart. */
export function formPaths(rule: unknown): string[] {
  const action = actionType(rule);
  return ["name", "trigger.type", "condition", "action.type", "rateLimit", ...filterFields(rule), ...(action ? ACTION_FIELDS[action] : []), ...RATE_FIELDS].map(
    (f) => (typeof f === "string" ? f : f.path),
  );
}

export const newRule = (): Json => ({ trigger: { type: "artifact_published" }, condition: "", action: { type: "notify_session", target: "", message: "" } });

/** A new trigger type keeps the filters that still apply to it. */
export function withTrigger(rule: unknown, type: TriggerType): Json {
  const keep = FILTERS[scopeOf(type)] as readonly string[];
  const filters = Object.entries(asObject(getAt(rule, "trigger"))).filter(([k]) => keep.includes(k));
  return setAt(rule, "trigger", { type, ...Object.fromEntries(filters) });
}

/** A new action type starts with its own fields, keeping what was typed into fields of the same name. */
export function withAction(rule: unknown, type: Action["type"]): Json {
  let action: Json = { type };
  for (const f of ACTION_FIELDS[type]) {
    const old = getAt(rule, f.path);
    action = setAt(action, f.path.slice("action.".length), typeof old === "string" ? old : "");
  }
  return setAt(rule, "action", action);
}

const OPTIONAL = [
  "name",
  "condition",
  ...new Set(
    Object.values(FILTERS)
      .flat()
      .map((k) => `trigger.${k}`),
  ),
  "action.artifactId",
  "action.contract.description",
];

function without(value: Json, path: string): Json {
  const [head, ...rest] = path.split(".");
  if (!(head in value)) return value;
  if (rest.length === 0) {
    const { [head]: _gone, ...others } = value;
    return others;
  }
  return isObject(value[head]) ? { ...value, [head]: without(value[head], rest.join(".")) } : value;
}

/** Numbers from number inputs; anything else goes as typed, for the hub to name. */
const toNumber = (v: unknown) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v);

/** The rule as the hub should see it. Anything that is not an object is sent as it is, for the hub to refuse. */
export function toSend(rule: unknown): unknown {
  if (!isObject(rule)) return rule;
  let out = rule;
  for (const path of OPTIONAL) if (getAt(out, path) === "") out = without(out, path);
  const rate = getAt(out, "rateLimit");
  if (isObject(rate)) {
    const max = rate.max === "" ? undefined : toNumber(rate.max);
    const perSeconds = rate.perSeconds === "" ? undefined : toNumber(rate.perSeconds);
    out = max === undefined && perSeconds === undefined ? without(out, "rateLimit") : { ...out, rateLimit: { max, perSeconds } };
  }
  return out;
}

/** The value a hub field name points at: `rules[0].action.message` in `{rules: [...]}`. */
export function valueAtField(root: unknown, field: string): unknown {
  const steps = field.match(/[^.[\]]+/g) ?? [];
  return steps.reduce<unknown>((v, step) => (Array.isArray(v) ? v[Number(step)] : isObject(v) ? v[step] : undefined), root);
}

/** Whether nothing has been typed there yet (a form does not scold fields nobody touched). */
export const isBlank = (v: unknown) => v === undefined || v === null || v === "";
