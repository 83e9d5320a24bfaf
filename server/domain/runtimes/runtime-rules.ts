/**
 * What a session may ask of its runtime (docs/runtimes.md#choosing-a-runtime), judged against the hub's table before
 * anything is written: a runtime the hub has, a model it offers, nothing it cannot do. Every door that creates a session
 * comes through here (insertSession, and forkSession for what a fork asks).
 */
import type { SessionRow } from "../../db/rows.ts";
import { DomainError, invalidField } from "../../errors.ts";
import { DEFAULT_RUNTIME, RUNTIME_NAMES, isRuntimeName, type RuntimeName, type RuntimeTable } from "../../runtimes.ts";

/** The runtime and model a new session gets: the runtime's default model when it asks for none. */
export function chooseRuntime(runtimes: RuntimeTable, s: { runtime?: string; model?: string; agent?: string }): { runtime: RuntimeName; model: string | null } {
  const name = s.runtime ?? DEFAULT_RUNTIME;
  if (!isRuntimeName(name)) throw invalidField("runtime", "known_runtime", `'${name}' is not a runtime of this hub (${RUNTIME_NAMES.join(", ")})`, name);
  const spec = runtimes[name];
  if (s.model !== undefined && spec.models && !(s.model in spec.models)) {
    const offered = Object.keys(spec.models).join(", ");
    throw invalidField("model", "runtime_model", `runtime '${name}' offers no model '${s.model}'; it offers ${offered}`, s.model);
  }
  if (s.agent !== undefined && spec.cannot.agent) {
    throw invalidField("agent", "runtime_can", `runtime '${name}' cannot run an agent: ${spec.cannot.agent}`, s.agent);
  }
  return { runtime: name, model: s.model ?? spec.defaultModel };
}

/** A fork continues the parent's conversation, which its runtime must be able to start from. */
export function refuseFork(runtimes: RuntimeTable, parent: Pick<SessionRow, "name" | "runtime">): void {
  const why = isRuntimeName(parent.runtime) ? runtimes[parent.runtime].cannot.fork : undefined;
  if (why) {
    throw new DomainError("precondition_failed", `name: session '${parent.name}' runs ${parent.runtime}, which cannot fork: ${why}`, {
      field: "name",
      rule: "runtime_can",
      runtime: parent.runtime,
    });
  }
}
