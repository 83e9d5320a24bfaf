import { HookInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(HookInput, (s, actor, input) => s.continuity.hook(actor, input));
