import { CreateTokenInput } from "@/lib/api/tokens.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(CreateTokenInput, (s, actor, input) => s.auth.createToken(actor, input), { status: 201 });
