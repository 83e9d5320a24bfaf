import { z } from "zod";
import { MemberName } from "../ids.ts";

export const CreateTokenInput = z.object({
  name: MemberName,
  kind: z.enum(["member", "agent"]).default("member"),
  // The hub labels the tokens it issues to supervised sessions this way; they identify the session.
  label: z
    .string()
    .max(200)
    .refine((l) => !l.startsWith("session:"), { error: "labels starting with 'session:' are reserved for the hub's own session tokens" })
    .optional(),
});
export const RevokeTokensInput = z.object({ name: MemberName, label: z.string().max(200).optional() });
