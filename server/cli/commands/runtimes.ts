import type { Command } from "commander";
import type { RuntimeView } from "../../../lib/api/runtimes.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { perMTok } from "../../../lib/format.ts";

const models = (r: RuntimeView) =>
  r.models ? r.models.map((m) => `${m.name} (${perMTok(m.inputUsdPerMTok)}/${perMTok(m.outputUsdPerMTok)} per M in/out)`).join(", ") : "any";
const cannot = (r: RuntimeView) =>
  Object.entries(r.cannot)
    .map(([what, why]) => `${what}: ${why}`)
    .join("; ");

export function register(program: Command) {
  program
    .command("runtimes")
    .description("the agents a session can run here (--runtime of spawn, team-spawn, delegate): models, prices, what each cannot do")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.runtimes.list(),
        (r) =>
          table(
            r.map((x) => ({ ...x, models: models(x), default: x.defaultModel, cannot: cannot(x) || null })),
            ["name", "protocol", "default", "models", "cannot"],
          ),
      ),
    );
}
