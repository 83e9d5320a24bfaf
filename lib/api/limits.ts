/**
 * Usage limits (docs/limits.md): an account's hold or warning as the doors show it, and a person's release of it.
 */
import { z } from "zod";
import { Flag } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

/** An account is the digest of a set of credentials: 16 hex digits, never the secret. */
export const AccountId = z.string({ error: "must be a string" }).regex(/^[0-9a-f]{16}$/, { error: "must be an account id (16 hex digits, as listed)" });

export const ReleaseAccountInput = z
  .object({
    account: AccountId,
    /** true: cancel the turns the hold keeps waiting instead of sending them now. */
    cancel: Flag.default(false),
  })
  .strict();
export type ReleaseAccountInput = z.infer<typeof ReleaseAccountInput>;

export const AccountHold = z.object({
  account: z.string(),
  /** "OAuth token ab12cd": what a person recognises. */
  label: z.string(),
  /** limited: no turn of its sessions starts until the reset; warning: its window is filling up. */
  status: z.enum(["limited", "warning"]),
  /** five_hour, seven_day, … as the CLI names it. */
  window: z.string().nullable(),
  resetsAt: IsoDate.nullable(),
  /** How full the window is (0–1), when the API said. */
  utilization: z.number().nullable(),
  since: IsoDate,
  message: z.string().nullable(),
  /** The team's sessions whose turns wait for it, in the order they will go. */
  held: z.array(z.string()),
});
export type AccountHold = z.output<typeof AccountHold>;

export const ReleaseResult = z.object({ released: z.array(z.string()) });
