import { z } from "zod";
import { MemberName } from "../ids.ts";

export const CreateTokenInput = z.object({
  name: MemberName,
  kind: z.enum(["member", "agent"]).default("member"),
  label: z.string().max(200).optional(),
});
export const RevokeTokensInput = z.object({ name: MemberName, label: z.string().max(200).optional() });
