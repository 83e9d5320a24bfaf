import { z } from "zod";
import { CreateTokenInput } from "@/lib/api/tokens.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(z.object({}), (s, actor) => s.auth.list(actor));
export const POST = handle(CreateTokenInput, (s, actor, input) => s.auth.createToken(actor, input), { status: 201 });
