/** The hub's health answer: reachable, which version, and how it runs (docs/security.md#sandbox). */
import { z } from "zod";
import { IsoDate } from "./endpoint.ts";

// ── Responses ──

/** `maxLiveSessions`: the admission limit on sessions holding a `claude` process (0: no limit). */
export const Health = z.object({
  ok: z.literal(true),
  version: z.string(),
  startedAt: IsoDate,
  requireToken: z.boolean(),
  sandbox: z.enum(["bubblewrap", "none"]),
  maxLiveSessions: z.number().int(),
});
export type Health = z.output<typeof Health>;
