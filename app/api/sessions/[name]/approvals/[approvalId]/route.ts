import { DecideApprovalInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(DecideApprovalInput, (s, actor, input) => s.sessions.decide(actor, input));
