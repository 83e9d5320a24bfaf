/** The hub's health answer: reachable, which version, and how it runs (docs/security.md#sandbox). */
import { z } from "zod";
import { IsoDate } from "./endpoint.ts";

// ── Responses ──

/**
 * `maxLiveSessions`: the admission limit on sessions holding a `claude` process (0: no limit). `claudeCode`: the CLI
 * the sessions run (null: not found or it did not say) and whether it is in the supported range (docs/distribution.md#claude-code-versions;
 * null while unknown).
 */
export const Health = z.object({
  ok: z.literal(true),
  version: z.string(),
  startedAt: IsoDate,
  requireToken: z.boolean(),
  sandbox: z.enum(["bubblewrap", "none"]),
  maxLiveSessions: z.number().int(),
  claudeCode: z.object({ version: z.string().nullable(), supported: z.boolean().nullable(), range: z.string() }),
});
export type Health = z.output<typeof Health>;
