import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.limits.release, (s, actor, input) => s.limits.release(actor, input));
