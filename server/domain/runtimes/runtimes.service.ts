/** The hub's runtimes as clients see them (`runtimes.list`): what a spawn may name, the models and prices, what each cannot do. */
import type { RuntimeView } from "../../../lib/api/runtimes.ts";
import { RUNTIME_NAMES, type RuntimeTable } from "../../runtimes.ts";

export function listRuntimes(runtimes: RuntimeTable): RuntimeView[] {
  return RUNTIME_NAMES.map((name) => {
    const { protocol, models, defaultModel, cannot } = runtimes[name];
    return {
      name,
      protocol,
      models: models && Object.entries(models).map(([model, price]) => ({ name: model, ...price })),
      defaultModel,
      cannot,
    };
  });
}
