import { RevokeTokensInput } from "@/lib/api/tokens.ts";
import { handle } from "@/server/http/handle.ts";

export const DELETE = handle(RevokeTokensInput, (s, actor, input) => s.auth.revoke(actor, input));
