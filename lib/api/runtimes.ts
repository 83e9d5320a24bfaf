/** The agents a session can run (docs/runtimes.md): the name a spawn asks for, and the hub's listing of them. */
import { z } from "zod";

/** A runtime's name as a caller gives it; which names exist is the hub's table's to say (server/runtimes.ts). */
export const RuntimeName = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, { error: "must be a runtime name such as 'claude' or 'codex'" });

// ── Responses ──

/** Dollars per million tokens. */
export const ModelPriceView = z.object({ name: z.string(), inputUsdPerMTok: z.number(), cachedInputUsdPerMTok: z.number(), outputUsdPerMTok: z.number() });
export type ModelPriceView = z.output<typeof ModelPriceView>;

/**
 * One runtime of the hub. `models`: those a session may ask for, with their prices (null: any, the agent resolves the
 * name itself); `defaultModel`: what a session runs when it names none (null: the agent's own default); `cannot`: what it
 * cannot do, with the reason a request for it is refused.
 */
export const RuntimeView = z.object({
  name: z.string(),
  protocol: z.enum(["claude-stream-json", "acp"]),
  models: z.array(ModelPriceView).nullable(),
  defaultModel: z.string().nullable(),
  cannot: z.object({ fork: z.string().optional(), agent: z.string().optional() }),
});
export type RuntimeView = z.output<typeof RuntimeView>;
